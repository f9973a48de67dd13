package doc

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"memsym/poly"
)

// Units says how a byte figure is written beside its exact value: with
// binary units (IEC, the default: 33.1 GiB), decimal units (SI: 35.5 GB),
// or not at all (Bytes).
type Units int

const (
	IEC   Units = iota // KiB, MiB, GiB, …: powers of 1024
	SI                 // kB, MB, GB, …: powers of 1000
	Bytes              // the exact figure alone
)

// unitNames are each system's units, from 1024¹ (or 1000¹) up.
var unitNames = map[Units][]string{
	IEC: {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"},
	SI:  {"kB", "MB", "GB", "TB", "PB", "EB"},
}

// ParseUnits reads the name of a system of units: "iec", "si" or "bytes".
func ParseUnits(s string) (Units, error) {
	switch s {
	case "iec":
		return IEC, nil
	case "si":
		return SI, nil
	case "bytes":
		return Bytes, nil
	}
	return IEC, fmt.Errorf("expected bytes, si or iec, found %q", s)
}

func (u Units) String() string {
	switch u {
	case SI:
		return "si"
	case Bytes:
		return "bytes"
	}
	return "iec"
}

// base returns 1024 for IEC and 1000 for SI.
func (u Units) base() int64 {
	if u == SI {
		return 1000
	}
	return 1024
}

// Bytes writes a count of bytes exactly, with its size in u's units
// beside it when it is at least one of them: "35500589056 bytes (33.1 GiB)",
// "24578.5 bytes (24.0 KiB)", "512 bytes".
func (u Units) Bytes(x poly.Rat) string {
	s := ByteCount(x)
	if a := u.Approx(x); a != "" {
		s += " (" + a + ")"
	}
	return s
}

// ByteCount writes a count of bytes with its noun: "1 byte", "0 bytes",
// "2.5 bytes".
func ByteCount(x poly.Rat) string {
	if x.Equal(poly.Int(1)) {
		return "1 byte"
	}
	return Decimal(x) + " bytes"
}

// Approx writes a count of bytes in the largest of u's units of which it
// holds at least one, to three significant digits: "33.1 GiB", "24.0 KiB"
// for 24578.5 bytes; from 999.5 of a unit, which three digits would round
// to 1000, in the next: "0.977 MiB" for 1000.004 KiB. A value that three digits or fewer give exactly is
// written without trailing zeros: "80 GiB", "1.5 GiB". It returns "" when
// u is Bytes or the count is less than one unit (1024 or 1000 bytes), whose
// exact figure says it all. Rounding is half-to-even, in exact decimal
// arithmetic.
func (u Units) Approx(x poly.Rat) string { return u.approx(x, 3) }

// ApproxBeside is Approx beside a reference, a budget: when three digits
// would put x's figure on the other side of ref, or on it, or make it the
// figure Approx writes for ref, while x is not ref (85909443976 bytes is
// "80.0 GiB", which reads as a budget of 80 GiB that it is over), it
// writes as many more digits as it takes: "80.01 GiB". A count of bytes,
// a multiple of a power of two over its unit, takes few.
func (u Units) ApproxBeside(x, ref poly.Rat) string {
	want := x.Cmp(ref)
	first := u.approx(x, 3)
	if want == 0 {
		return first
	}
	// The value the budget's own figure reads as, which x's must not.
	refBack, refErr := ParseSize(strings.ReplaceAll(u.Approx(ref), " ", ""))
	for digits := 3; digits <= maxDigits; digits++ {
		s := u.approx(x, digits)
		if s == "" {
			return s
		}
		back, err := ParseSize(strings.ReplaceAll(s, " ", ""))
		if err == nil && back.Cmp(ref) == want && (refErr != nil || !back.Equal(refBack)) {
			return s
		}
	}
	return first // not told apart in maxDigits: the bytes beside it are
}

// Budget writes a budget as its unit says it, "80 GiB", when that is
// exact, else with its bytes: "80000000000 bytes (74.5 GiB)".
func (u Units) Budget(x poly.Rat) string {
	if a := u.Approx(x); a != "" {
		if back, err := readFigure(a); err == nil && back.Equal(x) {
			return a
		}
	}
	return u.Bytes(x)
}

// BudgetBeside is Budget for a budget written beside needs, each written
// as ApproxBeside writes it against the budget: when the budget's figure
// is not exact, it takes the digits it needs to fall on the side of each
// need's figure that the budget falls on of the need, so that needs of
// "74.505 GiB" that fit are not shown under a budget of "74.5 GiB"
// (80000000000 bytes, 74.50581 GiB).
func (u Units) BudgetBeside(budget poly.Rat, needs ...poly.Rat) string {
	name := u.Budget(budget)
	short := u.Approx(budget)
	if short == "" || name == short {
		return name // exact in its unit, or no unit to write
	}
	var figures, values []poly.Rat
	var sides []int
	for _, x := range needs {
		if f, err := readFigure(u.ApproxBeside(x, budget)); err == nil {
			figures, values, sides = append(figures, f), append(values, x), append(sides, budget.Cmp(x))
		}
	}
	// The budget's figure falls on the budget's side of each need's figure
	// and of the need itself, so that the need's figure, written with as
	// many digits as the budget's (ApproxAmong), can fall on the need's
	// side of it: a budget of 74.506 GiB (74.5058060 GiB) beside needs of
	// 74.50583 GiB would read as more than them.
	reads := func(s string) bool {
		b, err := readFigure(s)
		if err != nil {
			return false
		}
		for i, f := range figures {
			if sides[i] != 0 && (b.Cmp(f) != sides[i] || b.Cmp(values[i]) != sides[i]) {
				return false
			}
		}
		return true
	}
	if reads(short) {
		return name
	}
	for digits := 4; digits <= maxDigits; digits++ {
		if s := u.approx(budget, digits); reads(s) {
			return Decimal(budget) + " bytes (" + s + ")"
		}
	}
	return name
}

// ApproxAmong is ApproxBeside for needs x written in a row beside the
// budget as BudgetBeside(budget, row...) writes it, row holding every need
// of the row: x's figure also takes as many significant digits as the
// budget's figure shows, and falls on x's side of that figure, not on it.
// Beside a budget of 22.35 GiB (23998129766.4 bytes), needs of 23996025920
// bytes are "22.348 GiB", not "22.3 GiB", which reads as 50 MiB of room
// where there are 2 MB, nor "22.35 GiB", the budget's own figure.
func (u Units) ApproxAmong(x, budget poly.Rat, row ...poly.Rat) string {
	first := u.ApproxBeside(x, budget)
	want := x.Cmp(budget)
	if first == "" || want == 0 {
		return first
	}
	label := u.BudgetBeside(budget, row...)
	shown := label
	if i := strings.LastIndex(label, "("); i >= 0 {
		shown = strings.TrimSuffix(label[i+1:], ")")
	}
	fig, err := readFigure(shown)
	if err != nil {
		return first
	}
	for digits := max(significantDigits(first), significantDigits(shown)); digits <= maxDigits; digits++ {
		s := u.approx(x, digits)
		back, err := readFigure(s)
		if err != nil {
			return first
		}
		if back.Cmp(budget) == want && back.Cmp(fig) == want {
			return s
		}
	}
	return first // not told apart in maxDigits: the bytes beside it are
}

// BytesAmong is Bytes with ApproxAmong's figure.
func (u Units) BytesAmong(x, budget poly.Rat, row ...poly.Rat) string {
	s := u.Bytes(x)
	if a := u.Approx(x); a != "" {
		if b := u.ApproxAmong(x, budget, row...); b != a {
			s = strings.TrimSuffix(s, "("+a+")") + "(" + b + ")"
		}
	}
	return s
}

// significantDigits counts the significant digits of a figure Approx
// writes: 3 in "0.977 MiB", 4 in "22.35 GiB".
func significantDigits(s string) int {
	n, leading := 0, true
	for _, r := range s {
		if r == ' ' {
			break
		}
		if r < '0' || r > '9' {
			continue
		}
		if leading && r == '0' {
			continue
		}
		leading = false
		n++
	}
	return n
}

// readFigure reads back a figure that Approx writes, "74.5 GiB".
func readFigure(s string) (poly.Rat, error) {
	return ParseSize(strings.ReplaceAll(s, " ", ""))
}

// maxDigits bounds the significant digits ApproxBeside writes.
const maxDigits = 24

// BytesBeside is Bytes with ApproxBeside's figure.
func (u Units) BytesBeside(x, ref poly.Rat) string {
	s := u.Bytes(x)
	if a := u.Approx(x); a != "" {
		if b := u.ApproxBeside(x, ref); b != a {
			s = strings.TrimSuffix(s, "("+a+")") + "(" + b + ")"
		}
	}
	return s
}

// approx is Approx to the given number of significant digits.
func (u Units) approx(x poly.Rat, digits int) string {
	names, ok := unitNames[u]
	if !ok {
		return ""
	}
	sign := ""
	if x.Sign() < 0 {
		sign, x = "-", x.Neg()
	}
	base := poly.Int(u.base())
	if x.Cmp(base) < 0 {
		return ""
	}
	unit, v := 0, x.Quo(base)
	for unit+1 < len(names) && v.Cmp(base) >= 0 {
		unit, v = unit+1, v.Quo(base)
	}
	s := significantUnit(v, digits)
	if whole := len(strings.Split(s, ".")[0]); whole > 3 {
		if unit+1 < len(names) {
			// 999.5 KiB and more round to four digits: say it in MiB.
			unit, v = unit+1, v.Quo(base)
			s = significantUnit(v, digits)
		} else {
			s = significantUnit(v, whole+digits-3) // beyond EiB: every digit of the whole part, and as many more as asked past three
		}
	}
	return sign + s + " " + names[unit]
}

// significantUnit writes v (> 0) to the given number of significant
// digits, or exactly without trailing zeros when as many digits or fewer
// hold it exactly.
func significantUnit(v poly.Rat, digits int) string {
	s := Significant(v, digits)
	if r, err := poly.ParseRat(s); err == nil && r.Equal(v) {
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
	}
	return s
}

// Decimal writes x exactly as a plain decimal when its expansion ends (it
// does when its denominator has no prime factor but 2 and 5): "24578.5",
// "2.125", "-3". Any other rational is written n/d: "1/3".
func Decimal(x poly.Rat) string {
	if x.IsInt() {
		return x.Num().String()
	}
	den := x.Den()
	places := 0
	for _, p := range []int64{2, 5} {
		n := 0
		q, r := new(big.Int), new(big.Int)
		for {
			q.QuoRem(den, big.NewInt(p), r)
			if r.Sign() != 0 {
				break
			}
			den.Set(q)
			n++
		}
		places = max(places, n)
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return x.String()
	}
	return Fixed(x, places)
}

// sizeUnits are the units ParseSize reads, by their name in lower case.
var sizeUnits = map[string]struct {
	base int64
	pow  int
}{
	"": {1, 0}, "b": {1, 0},
	"kb": {1000, 1}, "mb": {1000, 2}, "gb": {1000, 3}, "tb": {1000, 4}, "pb": {1000, 5}, "eb": {1000, 6},
	"kib": {1024, 1}, "mib": {1024, 2}, "gib": {1024, 3}, "tib": {1024, 4}, "pib": {1024, 5}, "eib": {1024, 6},
}

// sizeSyntax is a decimal number, perhaps with an exponent, then perhaps
// a unit.
var sizeSyntax = regexp.MustCompile(`^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]{1,4}))?\s*([A-Za-z]*)$`)

// maxExponent bounds a size's exponent, so that "1e999999" cannot ask for
// a number of a million digits.
const maxExponent = 30

// SizeHelp says what a size may be, for messages.
const SizeHelp = "expected a size such as 80GiB, 80GB or 8e10: a number of bytes, perhaps with a unit (kB, MB, GB, TB, PB, EB: powers of 1000; KiB, MiB, GiB, TiB, PiB, EiB, or Ki to Ei alone: powers of 1024)"

// ParseSize reads a size in bytes, exactly: "80GiB" is 85899345920,
// "80GB" 80000000000, "8e10" 80000000000, "1.5GiB" 1610612736, "2.5"
// two and a half bytes. Units are read in upper or lower case and all count
// bytes; "Gi" is GiB, and a bare "G" is refused as it may mean either GB
// or GiB.
func ParseSize(s string) (poly.Rat, error) {
	m := sizeSyntax.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return poly.Rat{}, fmt.Errorf("%s", SizeHelp)
	}
	if u := m[3]; (len(u) == 2 || len(u) == 3 && u[1] == 'i') && strings.Contains("KMGTPE", u[:1]) && u[len(u)-1] == 'b' {
		// An upper-case prefix and a lower-case b is how bits are
		// written: 80 Gb is 10 GB, 8 Gib is 1 GiB.
		return poly.Rat{}, fmt.Errorf("%q is a count of bits: for bytes write %sB (powers of 1000) or %siB (powers of 1024)", u, strings.Replace(u[:1], "K", "k", 1), u[:1])
	}
	l := strings.ToLower(m[3])
	if len(l) == 2 && l[1] == 'i' {
		l += "b" // "Gi" is a binary prefix alone, as Kubernetes writes sizes: GiB
	}
	unit, ok := sizeUnits[l]
	if !ok {
		switch l {
		case "k", "m", "g", "t", "p", "e":
			up := strings.ToUpper(l[:1])
			if up == "K" {
				return poly.Rat{}, fmt.Errorf("%q may mean kB (1000 bytes) or KiB (1024 bytes): say which", m[3])
			}
			return poly.Rat{}, fmt.Errorf("%q may mean %sB (powers of 1000) or %siB (powers of 1024): say which", m[3], up, up)
		}
		return poly.Rat{}, fmt.Errorf("unknown unit %q: %s", m[3], SizeHelp)
	}
	whole, frac, _ := strings.Cut(m[1], ".")
	num, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return poly.Rat{}, fmt.Errorf("%s", SizeHelp)
	}
	exp := -len(frac)
	if m[2] != "" {
		var e int
		fmt.Sscan(m[2], &e)
		if e > maxExponent || e < -maxExponent {
			return poly.Rat{}, fmt.Errorf("exponent %d: expected one from -%d to %d", e, maxExponent, maxExponent)
		}
		exp += e
	}
	v := new(big.Rat).SetInt(num)
	ten := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil))
	if exp >= 0 {
		v.Mul(v, ten)
	} else {
		v.Quo(v, ten)
	}
	scale := new(big.Int).Exp(big.NewInt(unit.base), big.NewInt(int64(unit.pow)), nil)
	v.Mul(v, new(big.Rat).SetInt(scale))
	return poly.FromBig(v), nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
