// This file reads the tuning spec: the parameters (the evaluator's own
// weight names) with their start, bounds and fishtest's c_end and r_end,
// and the run-wide schedule constants.

package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
)

// Param is one tuned weight, as fishtest specifies an SPSA parameter.
type Param struct {
	// Name is the weight's name in the evaluator's JSON weights (an array
	// element as name[i]).
	Name string `json:"name"`
	// Start is θ's first value; nil takes the evaluator's current weight.
	Start *float64 `json:"start,omitempty"`
	Min   float64  `json:"min"`
	Max   float64  `json:"max"`
	// CEnd is the perturbation c_k at the last iteration; c_k shrinks to
	// it from CEnd·N^γ.
	CEnd float64 `json:"c_end"`
	// REnd is the learning rate a_k/c_k² at the last iteration (fishtest's
	// default 0.002): one game pair won moves θ by about REnd·CEnd then.
	REnd float64 `json:"r_end"`
}

// Spec is a tuning spec file.
type Spec struct {
	Params []Param `json:"params"`
	// A is the stability constant of a_k = a/(A+k+1)^α, in game pairs;
	// 0 takes 10 % of the run's pairs.
	A float64 `json:"A,omitempty"`
	// Alpha and Gamma are the decay exponents (0: 0.602 and 0.101).
	Alpha float64 `json:"alpha,omitempty"`
	Gamma float64 `json:"gamma,omitempty"`
	// ScoreScale maps a score game's paired difference to a result:
	// clamp((θ+ − θ−)/ScoreScale, −1, 1); 0 counts only its sign (a seed
	// duel: +1, −1 or 0).
	ScoreScale float64 `json:"score_scale,omitempty"`
}

// Default schedule exponents (Spall's, fishtest's).
const (
	DefaultAlpha = 0.602
	DefaultGamma = 0.101
	DefaultREnd  = 0.002
)

// LoadSpec reads and checks a spec file against the evaluator's weights
// struct *weights (whose values give missing starts).
func LoadSpec(path string, weights any) (Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, err
	}
	s, err := ParseSpec(b, weights)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseSpec reads a spec (unknown fields refused) and checks it: every
// name a tunable weight of *weights and given once, min < max, the start
// within bounds, c_end > 0, r_end ≥ 0. Missing starts and r_ends are
// filled in.
func ParseSpec(b []byte, weights any) (Spec, error) {
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("spec: %w", err)
	}
	if err := s.Check(weights); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// Check validates s against *weights and fills in defaults.
func (s *Spec) Check(weights any) error {
	if len(s.Params) == 0 {
		return errors.New("spec: no params (want {\"params\": [{\"name\": ..., \"min\": ..., \"max\": ..., \"c_end\": ...}]})")
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	seen := map[string]bool{}
	for i := range s.Params {
		p := &s.Params[i]
		if p.Name == "" {
			return fmt.Errorf("spec: param %d has no name", i+1)
		}
		if seen[p.Name] {
			return fmt.Errorf("spec: param %q given twice", p.Name)
		}
		seen[p.Name] = true
		cur, err := GetWeight(weights, p.Name)
		if err != nil {
			return fmt.Errorf("spec: %w", err)
		}
		if !finite(p.Min) || !finite(p.Max) || p.Min >= p.Max {
			return fmt.Errorf("spec: %s: want min < max, got %g and %g", p.Name, p.Min, p.Max)
		}
		if p.Start == nil {
			p.Start = &cur
		}
		if !finite(*p.Start) || *p.Start < p.Min || *p.Start > p.Max {
			return fmt.Errorf("spec: %s: start %g is outside [%g, %g]", p.Name, *p.Start, p.Min, p.Max)
		}
		if !finite(p.CEnd) || p.CEnd <= 0 {
			return fmt.Errorf("spec: %s: c_end must be > 0 (the last iteration's perturbation), got %g", p.Name, p.CEnd)
		}
		if p.CEnd > p.Max-p.Min {
			return fmt.Errorf("spec: %s: c_end %g is wider than the range [%g, %g]", p.Name, p.CEnd, p.Min, p.Max)
		}
		if p.REnd == 0 {
			p.REnd = DefaultREnd
		}
		if !finite(p.REnd) || p.REnd < 0 {
			return fmt.Errorf("spec: %s: r_end must be > 0, got %g", p.Name, p.REnd)
		}
	}
	if s.Alpha == 0 {
		s.Alpha = DefaultAlpha
	}
	if s.Gamma == 0 {
		s.Gamma = DefaultGamma
	}
	if !(s.Alpha > 0 && s.Alpha <= 1) || !(s.Gamma > 0 && s.Gamma <= 1) {
		return fmt.Errorf("spec: alpha and gamma must be in (0, 1], got %g and %g", s.Alpha, s.Gamma)
	}
	if !finite(s.A) || s.A < 0 {
		return fmt.Errorf("spec: A must be ≥ 0, got %g", s.A)
	}
	if !finite(s.ScoreScale) || s.ScoreScale < 0 {
		return fmt.Errorf("spec: score_scale must be ≥ 0, got %g", s.ScoreScale)
	}
	return nil
}

// Names lists the parameters' names in spec order.
func (s Spec) Names() []string {
	out := make([]string, len(s.Params))
	for i, p := range s.Params {
		out[i] = p.Name
	}
	return out
}
