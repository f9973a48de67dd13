package doc

import (
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"memsym/poly"
)

func bigRat(t *testing.T, s string) poly.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad rational %q", s)
	}
	return poly.FromBig(r)
}

func TestGroup(t *testing.T) {
	for _, c := range []struct {
		in, sep, want string
	}{
		{"0", ThinSpace, "0"},
		{"999", ThinSpace, "999"},
		{"1000", ThinSpace, "1\u2009000"},
		{"4608", ThinSpace, "4\u2009608"},
		{"86532096", ThinSpace, "86\u2009532\u2009096"},
		{"86532096", LaTeXThinSpace, `86\,532\,096`},
		{"86532096", NarrowNoBreakSpace, "86\u202f532\u202f096"},
		{"-1234", ThinSpace, "-1\u2009234"},
		{"3/2", ThinSpace, "1.5"},
		{"-3/2", ThinSpace, "-1.5"},
		{"251/2", ThinSpace, "125.5"},
		{"7/3", ThinSpace, "7/3"},
		{"4147/3", ThinSpace, "4147/3"},
		{"2469135/2", " ", "1 234 567.5"}, // not "2 469 135/2", whose 2 reads apart
		{"4147/8", ThinSpace, "518.375"},
		{"-4147/8", ThinSpace, "-518.375"},
		{"-1001/2", ThinSpace, "-500.5"},
		{"4147/3", ThinSpace, "4147/3"}, // no decimal: ungrouped
		{"999/7", ThinSpace, "999/7"},
		{"123456789012345678901234567890", " ", "123 456 789 012 345 678 901 234 567 890"},
	} {
		if got := Group(bigRat(t, c.in), c.sep); got != c.want {
			t.Errorf("Group(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHuman(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"3238627392", "3.2 GB"}, // the seed's kept-for-the-backward
		{"920254480", "0.92 GB"}, // the seed's recompute peak
		{"3762854984", "3.8 GB"},
		{"903168", "0.90 MB"},
		{"149504", "150 kB"},
		{"23552", "24 kB"},
		{"0", "0 B"},
		{"512", "512 B"},
		{"3/2", "3/2 B"}, // half a byte more than one: exact, never 1.5
		{"899", "899 B"},
		{"900", "0.90 kB"},
		{"2250", "2.2 kB"}, // half to even
		{"2350", "2.4 kB"},
		{"22500", "22 kB"},
		{"899999", "900 kB"},
		{"1864417280", "1.9 GB"},
		{"-3238627392", "-3.2 GB"},
		{"5000000000000000000000", "5000 EB"},
	} {
		if got := Human(bigRat(t, c.in)); got != c.want {
			t.Errorf("Human(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSignificant(t *testing.T) {
	for _, c := range []struct {
		in     string
		digits int
		want   string
	}{
		{"9/10", 2, "0.90"},
		{"450123/1000", 2, "450"},
		{"3762854984/920254480", 2, "4.1"}, // the seed's "4.1 times less"
		{"1/3", 3, "0.333"},
		{"25/10", 1, "2"},
		{"35/10", 1, "4"},
		{"7", 3, "7.00"},
		{"0", 2, "0"},
		{"-9/10", 2, "-0.90"},
		{"999/100", 2, "10"},
		// 4451415190753705722 bytes in EiB: 3.861…, which decimal's SetRat
		// rounded to 3.87.
		{"4451415190753705722/1152921504606846976", 3, "3.86"},
	} {
		if got := Significant(bigRat(t, c.in), c.digits); got != c.want {
			t.Errorf("Significant(%s, %d) = %q, want %q", c.in, c.digits, got, c.want)
		}
	}
}

// TestSignificantExact checks Significant against rounding done here with
// integers alone, on rationals of up to 40 digits over powers of two and
// other denominators, from 1 to 8 digits.
func TestSignificantExact(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	for range 20000 {
		num := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(130))))
		num.Add(num, big.NewInt(1))
		var den *big.Int
		if rng.Intn(2) == 0 {
			den = new(big.Int).Lsh(big.NewInt(1), uint(rng.Intn(70)))
		} else {
			den = big.NewInt(1 + rng.Int63n(1_000_000_007))
		}
		if rng.Intn(4) == 0 {
			num.Neg(num)
		}
		x := poly.FromBig(new(big.Rat).SetFrac(num, den))
		digits := 1 + rng.Intn(8)
		if got, want := Significant(x, digits), significantByIntegers(x.Big(), digits); got != want {
			t.Fatalf("Significant(%s, %d) = %q, want %q", x, digits, got, want)
		}
	}
}

// significantByIntegers rounds |r| half to even to digits significant
// digits by scaling it by a power of ten and dividing with remainder.
func significantByIntegers(r *big.Rat, digits int) string {
	sign := ""
	if r.Sign() < 0 {
		sign = "-"
	}
	num, den := new(big.Int).Abs(r.Num()), r.Denom()
	// e: 10^e ≤ |r| < 10^(e+1), by the quotient's digits, then corrected.
	e := len(new(big.Int).Quo(num, den).String()) - 1
	if num.Cmp(den) < 0 {
		e = -1
		for scaled := new(big.Int).Mul(num, big.NewInt(10)); scaled.Cmp(den) < 0; scaled.Mul(scaled, big.NewInt(10)) {
			e--
		}
	}
	places := digits - 1 - e // digits after the point, negative for tens
	q, rem := scaledQuoRem(num, den, places)
	switch c := new(big.Int).Lsh(rem, 1).Cmp(scaledDen(den, places)); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	if len(q.String()) > digits { // 9.99 to 10: one digit more, one place less
		places--
		q, rem = scaledQuoRem(num, den, places)
		switch c := new(big.Int).Lsh(rem, 1).Cmp(scaledDen(den, places)); {
		case c > 0, c == 0 && q.Bit(0) == 1:
			q.Add(q, big.NewInt(1))
		}
	}
	s := q.String()
	switch {
	case places <= 0:
		s += strings.Repeat("0", -places)
	case len(s) <= places:
		s = "0." + strings.Repeat("0", places-len(s)) + s
	default:
		s = s[:len(s)-places] + "." + s[len(s)-places:]
	}
	return sign + s
}

// scaledQuoRem divides num·10^places by den (num by den·10^-places when
// places is negative).
func scaledQuoRem(num, den *big.Int, places int) (q, rem *big.Int) {
	n := new(big.Int).Set(num)
	if places > 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil))
	}
	return new(big.Int).QuoRem(n, scaledDen(den, places), new(big.Int))
}

func scaledDen(den *big.Int, places int) *big.Int {
	if places >= 0 {
		return den
	}
	return new(big.Int).Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-places)), nil))
}

func TestFixed(t *testing.T) {
	for _, c := range []struct {
		in     string
		places int
		want   string
	}{
		{"149504", 6, "149504"},
		{"3/2", 6, "1.5"},
		{"1/8", 6, "0.125"},
		{"-5/2", 6, "-2.5"},
		{"1/3", 6, "0.333333"},
		{"2/3", 6, "0.666667"},
		{"1/2", 0, "0"}, // half to even
		{"3/2", 0, "2"},
		{"-1/3", 2, "-0.33"},
		{"100000000000000000000001/10", 1, "10000000000000000000000.1"},
	} {
		if got := Fixed(bigRat(t, c.in), c.places); got != c.want {
			t.Errorf("Fixed(%s, %d) = %q, want %q", c.in, c.places, got, c.want)
		}
	}
}

func TestTimes(t *testing.T) {
	if got := Times(poly.Int(1232256), poly.Int(149504)); got != "8.2" {
		t.Errorf("Times = %q, want 8.2", got)
	}
	if got := Times(poly.Int(1), poly.Int(0)); got != "" {
		t.Errorf("Times by 0 = %q, want empty", got)
	}
}

// Group must write x's value, separators aside, exactly: an integer in
// groups of three, a rational as an ungrouped numerator/denominator, or
// as a decimal whose integer part is grouped.
func FuzzGroup(f *testing.F) {
	f.Add(int64(86532096), int64(1))
	f.Add(int64(-3), int64(2))
	f.Add(int64(-9223372036854775808), int64(7))
	f.Add(int64(4147), int64(8))
	f.Fuzz(func(t *testing.T, n, d int64) {
		if d == 0 {
			return
		}
		x := poly.Frac(n, d)
		out := Group(x, ThinSpace)
		plain := strings.ReplaceAll(out, ThinSpace, "")
		got, ok := new(big.Rat).SetString(plain)
		if !ok || got.Cmp(x.Big()) != 0 {
			t.Fatalf("Group(%v) = %q, which reads as %v", x, out, got)
		}
		whole, _, _ := strings.Cut(strings.TrimPrefix(out, "-"), ".")
		if strings.Contains(whole, "/") {
			if strings.Contains(whole, ThinSpace) {
				t.Fatalf("Group(%v) = %q: a fraction's digits are grouped", x, out)
			}
			return
		}
		groups := strings.Split(whole, ThinSpace)
		for i, g := range groups {
			if len(g) > 3 || len(g) == 0 || (i > 0 && len(g) != 3) {
				t.Fatalf("Group(%v) = %q: bad group %q", x, out, g)
			}
		}
	})
}

// A formula's integer coefficients are grouped as Group groups the prose's
// numbers, from four digits on, its fractions and its notation otherwise
// String's: with the separators taken out, it is String exactly.
func TestFormulaText(t *testing.T) {
	for _, c := range []struct{ in, sep, want string }{
		{"8*B*T + 16392*T + 1858125824", ThinSpace, "8 · B · T + 16\u2009392 · T + 1\u2009858\u2009125\u2009824"},
		{"81920*B*T + 4*T^2 + 16384*T", NarrowNoBreakSpace, "81\u202f920 · B · T + 4 · T² + 16\u202f384 · T"},
		{"48*B*T^2 + 1024*B*T + 999*T", " ", "48 · B · T² + 1 024 · B · T + 999 · T"},
		{"-1000*T + 3/2*B - 12345/2", ThinSpace, "−1\u2009000 · T + 3/2 · B − 12345/2"},
		{"B*T - 1", ThinSpace, "B · T − 1"},
		{"-T^12", ThinSpace, "−T¹²"},
		{"1000000", ThinSpace, "1\u2009000\u2009000"},
		{"0", ThinSpace, "0"},
	} {
		p, err := poly.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got := FormulaText(p, c.sep)
		if got != c.want {
			t.Errorf("FormulaText(%s, %q) = %q, want %q", c.in, c.sep, got, c.want)
		}
		if plain := FormulaText(p, ""); plain != p.String() {
			t.Errorf("FormulaText(%s, \"\") = %q, String %q", c.in, plain, p.String())
		}
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 500; i++ {
		var terms []string
		for j := 0; j < 1+r.Intn(4); j++ {
			term := strconv.FormatInt(r.Int63n(int64(1)<<uint(1+r.Intn(40))), 10)
			if r.Intn(4) == 0 {
				term = "-" + term
			}
			if r.Intn(5) == 0 {
				term += "/" + strconv.Itoa(2+r.Intn(9))
			}
			term += "*B^" + strconv.Itoa(r.Intn(3)) + "*T^" + strconv.Itoa(r.Intn(3))
			terms = append(terms, term)
		}
		p, err := poly.Parse(strings.ReplaceAll(strings.Join(terms, " + "), "+ -", "- "))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.ReplaceAll(FormulaText(p, ThinSpace), ThinSpace, ""), p.String(); got != want {
			t.Fatalf("FormulaText of %s, its groups joined, = %q, want String's %q", strings.Join(terms, " + "), got, want)
		}
	}
}
