// This file draws a run's trajectory: one panel per parameter (θ by
// iteration, its bounds dashed) and one of the running score, as a PNG
// (gonum/plot).

package tune

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

// runningWindow is the moving average's width in iterations.
const runningWindow = 10

// Plot writes the trajectory of s as a PNG to path.
func Plot(path string, s *State) error {
	var panels [][]*plot.Plot
	for j, p := range s.Spec.Params {
		xy := plotter.XYs{{X: 0, Y: *p.Start}}
		for _, st := range s.Steps {
			xy = append(xy, plotter.XY{X: float64(st.Index + 1), Y: st.Theta[j]})
		}
		pl := plot.New()
		pl.Title.Text = p.Name
		pl.X.Label.Text = "iteration"
		if err := addLine(pl, xy, colours[0], false); err != nil {
			return err
		}
		n := float64(s.Done)
		for _, b := range []float64{p.Min, p.Max} {
			if err := addLine(pl, plotter.XYs{{X: 0, Y: b}, {X: n, Y: b}}, colours[2], true); err != nil {
				return err
			}
		}
		panels = append(panels, []*plot.Plot{pl})
	}
	// Score games: the mean score of both sides; versus: θ+'s result per
	// game pair. Both as a moving average.
	var raw []float64
	scored := len(s.Steps) > 0 && s.Steps[0].Outcome.Scored
	for _, st := range s.Steps {
		o := st.Outcome
		if scored {
			raw = append(raw, (o.PlusScore+o.MinusScore)/2)
		} else {
			raw = append(raw, o.Result/float64(s.PairsPerIter))
		}
	}
	var run plotter.XYs
	sum := 0.0
	for i, x := range raw {
		sum += x
		if i >= runningWindow {
			sum -= raw[i-runningWindow]
		}
		run = append(run, plotter.XY{X: float64(i + 1), Y: sum / float64(min(i+1, runningWindow))})
	}
	pl := plot.New()
	pl.X.Label.Text = "iteration"
	if scored {
		pl.Title.Text = "mean score of θ+ and θ− (running mean of 10 iterations)"
	} else {
		pl.Title.Text = "θ+ result per game pair (running mean of 10 iterations)"
	}
	if len(run) > 0 {
		if err := addLine(pl, run, colours[1], false); err != nil {
			return err
		}
	}
	panels = append(panels, []*plot.Plot{pl})

	rows := len(panels)
	img := vgimg.New(8*vg.Inch, vg.Length(rows)*1.8*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(10), PadY: vg.Points(10)}
	cs := plot.Align(panels, tiles, dc)
	for i := range panels {
		panels[i][0].Draw(cs[i][0])
	}
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return err
	}
	return atomicfile.Write(path, b.Bytes())
}

func addLine(p *plot.Plot, xy plotter.XYs, c color.RGBA, dashed bool) error {
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color = c
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	return nil
}

var colours = []color.RGBA{{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, {R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, {R: 0x99, G: 0x99, B: 0x99, A: 0xff}}
