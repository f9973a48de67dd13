package poly

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Rat is an exact rational number. The zero value is 0.
//
// A Rat whose numerator and denominator fit in an int64 is held as two
// int64s; arithmetic that would overflow moves to math/big and comes back to
// int64s when the result fits again, so equal values always look equal.
// Rats are values: no operation changes its operands.
type Rat struct {
	n, d int64    // when b == nil: n/d in lowest terms, d > 0 (d == 0 only in the zero value)
	b    *big.Rat // when non-nil: the value, which does not fit in int64s
}

// Int returns the integer n as a Rat.
func Int(n int64) Rat { return Rat{n: n, d: 1} }

// Frac returns n/d. It panics if d is 0, as division by zero does.
func Frac(n, d int64) Rat {
	if d == 0 {
		panic("poly: Frac with zero denominator")
	}
	if n == math.MinInt64 || d == math.MinInt64 {
		return FromBig(new(big.Rat).SetFrac(big.NewInt(n), big.NewInt(d)))
	}
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(abs(n), d)
	return Rat{n: n / g, d: d / g}
}

// FromBig returns the value of r as a Rat. r is not retained.
func FromBig(r *big.Rat) Rat {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		return Rat{n: r.Num().Int64(), d: r.Denom().Int64()}
	}
	return Rat{b: new(big.Rat).Set(r)}
}

// FromBigInt returns the integer x as a Rat. x is not retained.
func FromBigInt(x *big.Int) Rat {
	if x.IsInt64() {
		return Int(x.Int64())
	}
	return Rat{b: new(big.Rat).SetInt(x)}
}

func (x Rat) parts() (n, d int64) {
	if x.d == 0 {
		return 0, 1
	}
	return x.n, x.d
}

// Big returns x as a new big.Rat.
func (x Rat) Big() *big.Rat {
	if x.b != nil {
		return new(big.Rat).Set(x.b)
	}
	n, d := x.parts()
	return big.NewRat(n, d)
}

// Num returns x's numerator in lowest terms as a new big.Int.
func (x Rat) Num() *big.Int {
	if x.b != nil {
		return new(big.Int).Set(x.b.Num())
	}
	n, _ := x.parts()
	return big.NewInt(n)
}

// Den returns x's denominator in lowest terms (always > 0) as a new big.Int.
func (x Rat) Den() *big.Int {
	if x.b != nil {
		return new(big.Int).Set(x.b.Denom())
	}
	_, d := x.parts()
	return big.NewInt(d)
}

// Int64 returns x as an int64 and true when x is an integer that fits.
func (x Rat) Int64() (int64, bool) {
	if x.b != nil {
		return 0, false
	}
	n, d := x.parts()
	return n, d == 1
}

// Small returns x's numerator and denominator and true when both fit in int64.
func (x Rat) Small() (n, d int64, ok bool) {
	if x.b != nil {
		return 0, 0, false
	}
	n, d = x.parts()
	return n, d, true
}

// IsInt reports whether x is an integer.
func (x Rat) IsInt() bool {
	if x.b != nil {
		return x.b.IsInt()
	}
	_, d := x.parts()
	return d == 1
}

// Sign returns -1, 0 or +1.
func (x Rat) Sign() int {
	if x.b != nil {
		return x.b.Sign()
	}
	switch {
	case x.n < 0:
		return -1
	case x.n > 0:
		return 1
	}
	return 0
}

// IsZero reports whether x is 0.
func (x Rat) IsZero() bool { return x.b == nil && x.n == 0 }

// Equal reports whether x and y are the same number.
func (x Rat) Equal(y Rat) bool {
	if x.b == nil && y.b == nil {
		xn, xd := x.parts()
		yn, yd := y.parts()
		return xn == yn && xd == yd
	}
	if x.b == nil || y.b == nil {
		return false // canonical: a value that fits is never big
	}
	return x.b.Cmp(y.b) == 0
}

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Rat) Cmp(y Rat) int {
	if x.b == nil && y.b == nil {
		xn, xd := x.parts()
		yn, yd := y.parts()
		if xd == 1 && yd == 1 {
			switch {
			case xn < yn:
				return -1
			case xn > yn:
				return 1
			}
			return 0
		}
		if l, ok := MulInt64(xn, yd); ok {
			if r, ok := MulInt64(yn, xd); ok {
				switch {
				case l < r:
					return -1
				case l > r:
					return 1
				}
				return 0
			}
		}
	}
	return x.Big().Cmp(y.Big())
}

// Neg returns -x.
func (x Rat) Neg() Rat {
	if x.b == nil {
		n, d := x.parts()
		if n != math.MinInt64 {
			return Rat{n: -n, d: d}
		}
	}
	return FromBig(new(big.Rat).Neg(x.Big()))
}

// Add returns x + y.
func (x Rat) Add(y Rat) Rat {
	if x.b == nil && y.b == nil {
		xn, xd := x.parts()
		yn, yd := y.parts()
		if xd == 1 && yd == 1 {
			if s, ok := AddInt64(xn, yn); ok {
				return Int(s)
			}
		} else if a, ok := MulInt64(xn, yd); ok {
			if b, ok := MulInt64(yn, xd); ok {
				if d, ok := MulInt64(xd, yd); ok {
					if n, ok := AddInt64(a, b); ok {
						return Frac(n, d)
					}
				}
			}
		}
	}
	return FromBig(new(big.Rat).Add(x.Big(), y.Big()))
}

// Sub returns x - y.
func (x Rat) Sub(y Rat) Rat { return x.Add(y.Neg()) }

// Mul returns x · y.
func (x Rat) Mul(y Rat) Rat {
	if x.b == nil && y.b == nil {
		xn, xd := x.parts()
		yn, yd := y.parts()
		if xd == 1 && yd == 1 {
			if p, ok := MulInt64(xn, yn); ok {
				return Int(p)
			}
		} else if n, ok := MulInt64(xn, yn); ok {
			if d, ok := MulInt64(xd, yd); ok {
				return Frac(n, d)
			}
		}
	}
	return FromBig(new(big.Rat).Mul(x.Big(), y.Big()))
}

// Quo returns x / y. It panics if y is 0, as division by zero does.
func (x Rat) Quo(y Rat) Rat {
	if y.IsZero() {
		panic("poly: division by zero")
	}
	if x.b == nil && y.b == nil {
		xn, xd := x.parts()
		yn, yd := y.parts()
		if n, ok := MulInt64(xn, yd); ok {
			if d, ok := MulInt64(xd, yn); ok && d != math.MinInt64 {
				return Frac(n, d)
			}
		}
	}
	return FromBig(new(big.Rat).Quo(x.Big(), y.Big()))
}

// Float64 returns the nearest float64 to x, for drawing only: never print it
// as an exact number.
func (x Rat) Float64() float64 {
	if x.b != nil {
		f, _ := x.b.Float64()
		return f
	}
	n, d := x.parts()
	return float64(n) / float64(d)
}

// String returns x as an integer ("12") or a fraction in lowest terms ("3/2",
// "-3/2").
func (x Rat) String() string {
	if x.b != nil {
		return x.b.RatString()
	}
	n, d := x.parts()
	if d == 1 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d/%d", n, d)
}

// ParseRat reads an exact rational written as an integer ("-12"), a fraction
// ("3/2") or a decimal ("1.5"). Exponents, infinities and spaces are refused.
func ParseRat(s string) (Rat, error) {
	if s == "" || strings.ContainsAny(s, "eE \t") {
		return Rat{}, fmt.Errorf("%q is not an exact number (expected an integer, a fraction like 3/2, or a decimal)", s)
	}
	if i := strings.IndexByte(s, '/'); i >= 0 && strings.ContainsRune(s[i+1:], '-') {
		return Rat{}, fmt.Errorf("%q is not an exact number: the denominator must be positive", s)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Rat{}, fmt.Errorf("%q is not an exact number (expected an integer, a fraction like 3/2, or a decimal)", s)
	}
	return FromBig(r), nil
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}
