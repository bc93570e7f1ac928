// This file addresses the numbers of an evaluator's weights struct by the
// names its JSON weights files use, so that a tuning spec names parameters
// exactly as the bots read them.

package tune

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// WeightNames lists the tunable numbers of the weights struct *w by JSON
// name: each numeric field (its json tag, else its Go name) and each
// element of a numeric array field as name[i]. Booleans and strings are
// not tunable.
func WeightNames(w any) []string {
	v := structValue(w)
	var out []string
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		switch {
		case isNumber(f.Type.Kind()):
			out = append(out, name)
		case f.Type.Kind() == reflect.Array && isNumber(f.Type.Elem().Kind()):
			for j := range f.Type.Len() {
				out = append(out, name+"["+strconv.Itoa(j)+"]")
			}
		}
	}
	return out
}

// GetWeight returns the named number of *w.
func GetWeight(w any, name string) (float64, error) {
	f, err := weightField(structValue(w), name)
	if err != nil {
		return 0, err
	}
	switch {
	case f.CanFloat():
		return f.Float(), nil
	case f.CanInt():
		return float64(f.Int()), nil
	}
	return float64(f.Uint()), nil
}

// SetWeight sets the named number of *w to x, rounded to the nearest
// integer for integer fields (as fishtest's workers round θ± for engines
// that take integers).
func SetWeight(w any, name string, x float64) error {
	f, err := weightField(structValue(w), name)
	if err != nil {
		return err
	}
	switch {
	case f.CanFloat():
		f.SetFloat(x)
	case f.CanInt():
		r := math.Round(x)
		if f.OverflowInt(int64(r)) {
			return fmt.Errorf("weight %s: %g does not fit", name, x)
		}
		f.SetInt(int64(r))
	default:
		r := math.Round(x)
		if r < 0 || f.OverflowUint(uint64(r)) {
			return fmt.Errorf("weight %s: %g does not fit", name, x)
		}
		f.SetUint(uint64(r))
	}
	return nil
}

// IsIntWeight tells whether the named number of *w holds integers.
func IsIntWeight(w any, name string) bool {
	f, err := weightField(structValue(w), name)
	return err == nil && !f.CanFloat()
}

func structValue(w any) reflect.Value {
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("tune: weights must be a pointer to a struct, not %T", w))
	}
	return v.Elem()
}

func isNumber(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if n, _, _ := strings.Cut(tag, ","); n != "" {
		return n, true
	}
	return f.Name, true
}

// weightField finds name ("Hole", "tslot[2]") in the struct v.
func weightField(v reflect.Value, name string) (reflect.Value, error) {
	base, idx := name, -1
	if i := strings.IndexByte(name, '['); i >= 0 && strings.HasSuffix(name, "]") {
		n, err := strconv.Atoi(name[i+1 : len(name)-1])
		if err != nil || n < 0 {
			return reflect.Value{}, fmt.Errorf("weight %q: bad index", name)
		}
		base, idx = name[:i], n
	}
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		n, ok := jsonName(sf)
		if !ok || n != base {
			continue
		}
		f := v.Field(i)
		switch {
		case idx < 0 && isNumber(f.Kind()):
			return f, nil
		case idx >= 0 && f.Kind() == reflect.Array && isNumber(f.Type().Elem().Kind()):
			if idx >= f.Len() {
				return reflect.Value{}, fmt.Errorf("weight %q: index out of range (%s has %d)", name, base, f.Len())
			}
			return f.Index(idx), nil
		case f.Kind() == reflect.Array && isNumber(f.Type().Elem().Kind()):
			return reflect.Value{}, fmt.Errorf("weight %q is an array: name one element, %s[0]..%s[%d]", name, base, base, f.Len()-1)
		}
		return reflect.Value{}, fmt.Errorf("weight %q is not a number", name)
	}
	return reflect.Value{}, fmt.Errorf("unknown weight %q (the evaluator's weights: %s)", name, strings.Join(sortedNames(v), ", "))
}

func sortedNames(v reflect.Value) []string {
	names := WeightNames(v.Addr().Interface())
	sort.Strings(names)
	// arrays once, as name[..], to keep the message short
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if i := strings.IndexByte(n, '['); i >= 0 {
			n = n[:i] + "[i]"
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
