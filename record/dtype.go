package record

import (
	"fmt"
	"math/big"

	"memsym/poly"
)

// DType is a stored element type: its name and its size in bits. A type given
// only by its size ({"bits": N}) has an empty name.
type DType struct {
	Name string
	Bits int
}

// dtypes are the named types of the format, with their bits.
var dtypes = map[string]int{
	"f64": 64, "f32": 32, "f16": 16, "bf16": 16, "f8": 8,
	"i64": 64, "i32": 32, "i16": 16, "i8": 8, "u8": 8,
	"i4": 4, "u4": 4, "bool": 8,
}

// LookupDType returns the named type, and whether the format knows the name.
func LookupDType(name string) (DType, bool) {
	bits, ok := dtypes[name]
	return DType{Name: name, Bits: bits}, ok
}

// Bits returns an unnamed type of the given size.
func Bits(n int) DType { return DType{Bits: n} }

// IsZero reports whether t is the zero DType (no type given).
func (t DType) IsZero() bool { return t.Name == "" && t.Bits == 0 }

func (t DType) String() string {
	if t.Name != "" {
		return t.Name
	}
	return fmt.Sprintf("%d-bit", t.Bits)
}

// Elements returns the product of shape as an exact integer (1 for a scalar).
func Elements(shape []int64) *big.Int {
	p := big.NewInt(1)
	var ok bool
	small := int64(1)
	for i, n := range shape {
		if small, ok = poly.MulInt64(small, n); !ok {
			p.SetInt64(1)
			for _, m := range shape[:i] {
				p.Mul(p, big.NewInt(m))
			}
			for _, m := range shape[i:] {
				p.Mul(p, big.NewInt(m))
			}
			return p
		}
	}
	return p.SetInt64(small)
}

// SizeOf returns the exact bytes of shape's elements of type t: the product
// of the shape times the type's bits over 8, nothing rounded (three i4 are
// 3/2 bytes).
func SizeOf(t DType, shape []int64) poly.Rat {
	e := Elements(shape)
	if e.IsInt64() {
		if b, ok := poly.MulInt64(e.Int64(), int64(t.Bits)); ok {
			return poly.Frac(b, 8)
		}
	}
	return poly.FromBig(new(big.Rat).SetFrac(e.Mul(e, big.NewInt(int64(t.Bits))), big.NewInt(8)))
}
