package record

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"memsym/poly"
)

// dtypeList is the named types, for error messages.
const dtypeList = `f64, f32, f16, bf16, f8, i64, i32, i16, i8, u8, i4, u4, bool or {"bits": N}`

func (s *Scanner) dtype() (DType, error) {
	l := &s.lex
	switch l.peek() {
	case '"':
		at := l.i
		b, err := l.str()
		if err != nil {
			return DType{}, err
		}
		if t, ok := namedDType(b); ok {
			return t, nil
		}
		l.i = at
		return DType{}, fmt.Errorf("unknown dtype %q: expected %s", clip(string(b)), dtypeList)
	case '{':
		var t DType
		err := s.object("dtype", func(name string) error {
			if name == "bits" && t.Bits != 0 {
				return fmt.Errorf(`key "bits" given twice: a dtype object has one key, "bits"`)
			}
			if name != "bits" {
				return fmt.Errorf(`a dtype object has one key, "bits", found %q`, name)
			}
			v, err := l.integer(`"bits" must be an integer from 1 to 1048576`)
			if err == nil && (v < 1 || v > 1<<20) {
				return fmt.Errorf(`"bits" must be an integer from 1 to %d, found %d`, 1<<20, v)
			}
			t.Bits = int(v)
			return err
		})
		if err == nil && t.Bits == 0 {
			err = errors.New(`a dtype object must give "bits": expected {"bits": N}`)
		}
		return t, err
	}
	return DType{}, l.errorf(`"dtype" must be one of %s`, dtypeList)
}

// bytesWant says what "bytes" may be, for errors.
const bytesWant = `"bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2"`

// bytesValue reads an exact non-negative size: a JSON integer of any size,
// or a string "N" or "N/M" in decimal digits with M > 0.
func (s *Scanner) bytesValue() (poly.Rat, error) {
	l := &s.lex
	at := l.i
	var text []byte
	switch c := l.peek(); {
	case isDigit(c) || c == '-':
		t, isInt, err := l.number()
		if err != nil {
			return poly.Rat{}, err
		}
		if isInt && string(t) == "-0" {
			return poly.Int(0), nil // zero, as -0 is in a shape or an id
		}
		if !isInt || c == '-' {
			l.i = at
			return poly.Rat{}, l.errorf("%s", bytesWant)
		}
		text = t
	case c == '"':
		t, err := l.str()
		if err != nil {
			return poly.Rat{}, err
		}
		text = t
	default:
		return poly.Rat{}, l.errorf("%s", bytesWant)
	}
	r, ok := parseSize(text)
	if !ok {
		l.i = at
		return poly.Rat{}, l.errorf("%s", bytesWant)
	}
	return r, nil
}

// parseSize reads "N" or "N/M", decimal digits without leading zeros, M > 0.
func parseSize(text []byte) (poly.Rat, bool) {
	num, den := text, []byte(nil)
	for i, c := range text {
		if c == '/' {
			num, den = text[:i], text[i+1:]
			break
		}
	}
	n, ok := parseNatural(num)
	if !ok {
		return poly.Rat{}, false
	}
	if den == nil {
		return n, true
	}
	d, ok := parseNatural(den)
	if !ok || d.IsZero() {
		return poly.Rat{}, false
	}
	return n.Quo(d), true
}

func parseNatural(b []byte) (poly.Rat, bool) {
	if len(b) == 0 || len(b) > 1 && b[0] == '0' {
		return poly.Rat{}, false
	}
	for _, c := range b {
		if !isDigit(c) {
			return poly.Rat{}, false
		}
	}
	if v, ok := parseInt64(b); ok {
		return poly.Int(v), true
	}
	x, _ := new(big.Int).SetString(string(b), 10)
	return poly.FromBigInt(x), true
}

// sizeOf is SizeOf without allocating when the product fits in an int64.
func sizeOf(t DType, shape []int64) poly.Rat { return sizeOfBits(int64(t.Bits), shape) }

// sizeOfBits is sizeOf for a type of the given bits.
func sizeOfBits(bitsPer int64, shape []int64) poly.Rat {
	p, ok := shapeBits(bitsPer, shape)
	switch {
	case !ok:
		return SizeOf(DType{Bits: int(bitsPer)}, shape)
	case p%8 == 0:
		return poly.Int(p / 8)
	}
	return poly.Frac(p, 8)
}

// sizeInt is sizeOf for a size that is an int64 integer, reported by ok:
// false where an axis is negative, where a product overflows an int64, or
// where the bits do not make whole bytes.
func sizeInt(bitsPer int, shape []int64) (n int64, ok bool) {
	p, ok := shapeBits(int64(bitsPer), shape)
	return p / 8, ok && p%8 == 0
}

// shapeBits returns the bits of a shape of elements of bitsPer bits, and
// whether they are an int64 with no axis negative; else SizeOf has them.
func shapeBits(bitsPer int64, shape []int64) (int64, bool) {
	p := bitsPer
	for _, a := range shape {
		hi, lo := bits.Mul64(uint64(p), uint64(a))
		if a < 0 || hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		p = int64(lo)
	}
	return p, true
}

// namedDType returns the named type, its name shared, without a map lookup.
func namedDType[S string | []byte](b S) (DType, bool) {
	switch string(b) {
	case "f64":
		return DType{"f64", 64}, true
	case "f32":
		return DType{"f32", 32}, true
	case "f16":
		return DType{"f16", 16}, true
	case "bf16":
		return DType{"bf16", 16}, true
	case "f8":
		return DType{"f8", 8}, true
	case "i64":
		return DType{"i64", 64}, true
	case "i32":
		return DType{"i32", 32}, true
	case "i16":
		return DType{"i16", 16}, true
	case "i8":
		return DType{"i8", 8}, true
	case "u8":
		return DType{"u8", 8}, true
	case "i4":
		return DType{"i4", 4}, true
	case "u4":
		return DType{"u4", 4}, true
	case "bool":
		return DType{"bool", 8}, true
	}
	return DType{}, false
}
