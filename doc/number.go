package doc

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"memsym/poly"
)

// Digit-group separators. A number is written with its integer digits in
// groups of three; each format picks the separator that reads best in it.
const (
	// ThinSpace separates digit groups in prose and in the PDF: 86 532 096.
	ThinSpace = "\u2009"
	// NarrowNoBreakSpace separates digit groups in Markdown and HTML: as
	// thin as ThinSpace, and a browser never breaks a number across lines
	// at it.
	NarrowNoBreakSpace = "\u202f"
	// LaTeXThinSpace separates digit groups in LaTeX: 86\,532\,096.
	LaTeXThinSpace = `\,`
)

// Group writes x exactly, its integers' digits in groups of three joined by
// sep: "86 532 096", "-1 234"; a rational as its exact decimal where it has
// one, "125.5", "518.375", its integer part grouped, as memsym's commands
// write it (Decimal: half a byte is never rounded), and else as
// numerator/denominator in lowest terms, "7/3", never grouped, as "4 147/3"
// would read as 4 and 147/3.
func Group(x poly.Rat, sep string) string {
	if n, d, ok := x.Small(); ok && n > -1000 && n < 1000 && d == 1 {
		return fmt.Sprint(n)
	}
	num, den := x.Num(), x.Den()
	if den.Cmp(big.NewInt(1)) == 0 {
		return groupInt(num, sep)
	}
	if d := Decimal(x); strings.Contains(d, ".") {
		whole, frac, _ := strings.Cut(d, ".")
		w, _ := new(big.Int).SetString(whole, 10)
		if whole == "-0" {
			return "-0." + frac
		}
		return groupInt(w, sep) + "." + frac
	}
	return num.String() + "/" + den.String()
}

// groupInt writes n in decimal with groups of three digits joined by sep.
func groupInt(n *big.Int, sep string) string {
	digits := n.String()
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteString(sep)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// byteUnits are the decimal units of Human, each 1000 times the one before.
var byteUnits = []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}

// Human writes a count of bytes the way a person says it, by this rule:
//
//   - below 900 bytes, exactly, with groups and a "B": "512 B", "3/2 B";
//   - otherwise in the largest decimal unit (kB = 10³ bytes, MB = 10⁶,
//     GB = 10⁹, TB, PB, EB) in which the value is at least 0.9, rounded
//     half-to-even to two significant digits: 3 238 627 392 bytes is
//     "3.2 GB", 920 254 480 bytes "0.92 GB", 903 168 bytes "0.90 MB".
//
// The rounding is done in exact decimal arithmetic from the exact value,
// so the same count always reads the same.
func Human(bytes poly.Rat) string {
	neg := bytes.Sign() < 0
	if neg {
		bytes = bytes.Neg()
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if bytes.Cmp(poly.Int(900)) < 0 {
		if !bytes.IsInt() { // a fraction, as the rounded figures are decimals
			return sign + bytes.String() + " B"
		}
		return sign + Group(bytes, ThinSpace) + " B"
	}
	unit, v := 0, bytes
	nineTenths := poly.Frac(9, 10)
	for unit+1 < len(byteUnits) {
		next := v.Quo(poly.Int(1000))
		if next.Cmp(nineTenths) < 0 {
			break
		}
		unit, v = unit+1, next
	}
	return sign + Significant(v, 2) + " " + byteUnits[unit]
}

// Significant writes x rounded half-to-even to the given number of
// significant digits (at least 1) as a plain decimal, keeping trailing zeros
// that are significant: Significant(9/10, 2) is "0.90", Significant(450123/1000,
// 2) is "450", Significant(4089/1000, 2) is "4.1".
func Significant(x poly.Rat, digits int) string {
	if digits < 1 {
		digits = 1
	}
	if x.IsZero() {
		return "0"
	}
	r := x.Big()
	num := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(r.Num()), 0)
	den := apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(r.Denom()), 0)
	ctx := apd.BaseContext.WithPrecision(uint32(digits))
	ctx.Rounding = apd.RoundHalfEven
	var d apd.Decimal
	if _, err := ctx.Quo(&d, num, den); err != nil {
		panic("doc: Significant: " + err.Error()) // a finite quotient at a precision of at least 1 has none
	}
	// A carry can leave one digit too many (9.99 to two digits as 10.0);
	// rounding it again is exact, the extra digit a zero.
	if d.NumDigits() > int64(digits) {
		if _, err := ctx.Round(&d, &d); err != nil {
			panic("doc: Significant: " + err.Error())
		}
	}
	// adjusted is the exponent of the leading digit: 3.2 has 0, 0.92 has -1.
	adjusted := int64(d.Exponent) + d.NumDigits() - 1
	if last := adjusted - int64(digits) + 1; int64(d.Exponent) > last {
		if _, err := ctx.Quantize(&d, &d, int32(last)); err != nil {
			panic("doc: Significant: " + err.Error())
		}
	}
	return d.Text('f')
}

// Fixed writes x as a plain decimal: exactly when its expansion ends within
// places digits after the point (every integer, 3/2 as "1.5", 1/8 as
// "0.125"), else rounded half-to-even to places digits (1/3 as "0.333333"
// for 6 places). It is for coordinates that a format such as pgfplots reads
// as decimals; it never goes through a float.
func Fixed(x poly.Rat, places int) string {
	if x.IsInt() {
		return x.Num().String()
	}
	if places < 0 {
		places = 0
	}
	num, den := x.Num(), x.Den()
	neg := num.Sign() < 0
	num.Abs(num)
	num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil))
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	switch c := new(big.Int).Lsh(r, 1).Cmp(den); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	digits := q.String()
	if len(digits) <= places {
		digits = strings.Repeat("0", places-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-places], strings.TrimRight(digits[len(digits)-places:], "0")
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}

// Times writes how many times a is b, to two significant digits: "4.1"
// for 3 762 854 984 against 920 254 480. It returns "" when b is 0.
func Times(a, b poly.Rat) string {
	if b.IsZero() {
		return ""
	}
	return Significant(a.Quo(b), 2)
}
