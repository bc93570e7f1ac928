// This file holds the JSON encoding of the statistics: non-finite numbers
// (an all-win Elo, a zero-variance nElo) are written as null, not refused.

package arena

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
)

// Reports contain infinite Elo (all wins) and undefined nElo (no variance);
// JSON has no such numbers, so these types write non-finite floats as null.

// MarshalJSON writes non-finite numbers as null.
func (e Estimate) MarshalJSON() ([]byte, error) {
	type plain Estimate
	return marshalFinite(plain(e))
}

// MarshalJSON writes non-finite numbers as null.
func (s Sample) MarshalJSON() ([]byte, error) {
	type plain Sample
	return marshalFinite(plain(s))
}

// MarshalJSON writes non-finite numbers as null.
func (s SPRTState) MarshalJSON() ([]byte, error) {
	type plain SPRTState
	return marshalFinite(plain(s))
}

// MarshalJSON writes non-finite numbers as null.
func (p Paired) MarshalJSON() ([]byte, error) {
	type plain Paired
	return marshalFinite(plain(p))
}

// marshalFinite encodes a flat struct field by field in declaration order,
// with float64 fields (and float64 arrays) that are NaN or ±Inf as null.
func marshalFinite(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	rt := rv.Type()
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for i := range rt.NumField() {
		f := rt.Field(i)
		name := f.Name
		if tag := f.Tag.Get("json"); tag != "" {
			if tag == "-" {
				continue
			}
			name = strings.Split(tag, ",")[0]
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(name)
		b.Write(kb)
		b.WriteByte(':')
		fv := rv.Field(i)
		if err := writeValue(&b, fv); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeValue(b *bytes.Buffer, fv reflect.Value) error {
	switch fv.Kind() {
	case reflect.Float64:
		x := fv.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b.WriteString("null")
			return nil
		}
	case reflect.Array:
		if fv.Type().Elem().Kind() == reflect.Float64 {
			b.WriteByte('[')
			for j := range fv.Len() {
				if j > 0 {
					b.WriteByte(',')
				}
				if err := writeValue(b, fv.Index(j)); err != nil {
					return err
				}
			}
			b.WriteByte(']')
			return nil
		}
	}
	vb, err := json.Marshal(fv.Interface())
	if err != nil {
		return err
	}
	b.Write(vb)
	return nil
}
