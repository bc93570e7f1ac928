// This file draws the run's progress: the Search game's lines and Learn's
// loss by generation, as one PNG of two stacked panels (gonum/plot).
package train

import (
	"bytes"
	"github.com/yomi-ai/yomi/internal/atomicfile"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plot writes a PNG of lines and losses by generation to path.
func Plot(path string, table []GenSummary) error {
	var score, val, tr plotter.XYs
	for _, g := range table {
		score = append(score, plotter.XY{X: float64(g.Gen), Y: float64(g.Score)})
		if g.TrainSet > 0 {
			val = append(val, plotter.XY{X: float64(g.Gen), Y: g.ValLoss})
			tr = append(tr, plotter.XY{X: float64(g.Gen), Y: g.TrainLoss})
		}
	}
	top := plot.New()
	top.Title.Text = "HATETRIS: lines of the Search game by generation"
	top.X.Label.Text = "generation"
	top.Y.Label.Text = "lines"
	top.Y.Min = 0
	if err := addLine(top, score, "lines", 0); err != nil {
		return err
	}
	bottom := plot.New()
	bottom.Title.Text = "Learn: MSE by generation (net trained in gen N, used in gen N+1)"
	bottom.X.Label.Text = "generation"
	bottom.Y.Label.Text = "MSE"
	bottom.Y.Min = 0
	if len(val) > 0 {
		if err := addLine(bottom, val, "validation (best epoch)", 1); err != nil {
			return err
		}
		if err := addLine(bottom, tr, "train (last epoch)", 2); err != nil {
			return err
		}
	}
	bottom.Legend.Top = true
	img := vgimg.New(8*vg.Inch, 7*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(10), PadY: vg.Points(12)}
	cs := plot.Align([][]*plot.Plot{{top}, {bottom}}, tiles, dc)
	top.Draw(cs[0][0])
	bottom.Draw(cs[1][0])
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return err
	}
	return atomicfile.Write(path, b.Bytes())
}

func addLine(p *plot.Plot, xys plotter.XYs, name string, colour int) error {
	l, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	c := plotColours[colour%len(plotColours)]
	l.Color, pts.Color = c, c
	p.Add(l, pts)
	p.Legend.Add(name, l, pts)
	return nil
}

var plotColours = []color.RGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, {R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, {R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}}
