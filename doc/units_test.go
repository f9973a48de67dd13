package doc

import (
	"math/big"
	"strings"
	"testing"

	"memsym/poly"
)

func TestUnitsBytes(t *testing.T) {
	for _, c := range []struct {
		in    string
		units Units
		want  string
	}{
		{"35500589056", IEC, "35500589056 bytes (33.1 GiB)"},
		{"35500589056", SI, "35500589056 bytes (35.5 GB)"},
		{"35500589056", Bytes, "35500589056 bytes"},
		{"49157/2", IEC, "24578.5 bytes (24.0 KiB)"},
		{"24576", IEC, "24576 bytes (24 KiB)"},
		{"85899345920", IEC, "85899345920 bytes (80 GiB)"},
		{"80000000000", SI, "80000000000 bytes (80 GB)"},
		{"1610612736", IEC, "1610612736 bytes (1.5 GiB)"},
		{"1023", IEC, "1023 bytes"},
		{"999", SI, "999 bytes"},
		{"1000", SI, "1000 bytes (1 kB)"},
		{"1024", IEC, "1024 bytes (1 KiB)"},
		{"1048063", IEC, "1048063 bytes (1.00 MiB)"},  // 1023.499 KiB, four digits at three significant
		{"1024000", IEC, "1024000 bytes (0.977 MiB)"}, // 1000 KiB
		{"1022976", IEC, "1022976 bytes (999 KiB)"},
		{"1048575", IEC, "1048575 bytes (1.00 MiB)"},
		{"999999", SI, "999999 bytes (1.00 MB)"},
		{"1", IEC, "1 byte"},
		{"0", IEC, "0 bytes"},
		{"5/2", IEC, "2.5 bytes"},
		{"1/3", IEC, "1/3 bytes"},
		{"17/8", IEC, "2.125 bytes"},
		{"-2048", IEC, "-2048 bytes (-2 KiB)"},
		{"1180591620717411303424", IEC, "1180591620717411303424 bytes (1024 EiB)"}, // beyond the largest unit
	} {
		r, _ := new(big.Rat).SetString(c.in)
		if got := c.units.Bytes(poly.FromBig(r)); got != c.want {
			t.Errorf("%v.Bytes(%s) = %q, want %q", c.units, c.in, got, c.want)
		}
	}
}

// TestApproxBeside: beside a budget, a figure takes the digits it needs
// to fall on its value's side of it, and no more; a value equal to the
// budget reads as it.
func TestApproxBeside(t *testing.T) {
	gib80 := poly.Int(85899345920)
	for _, c := range []struct {
		x     int64
		ref   poly.Rat
		units Units
		want  string
	}{
		{85909443976, gib80, IEC, "85909443976 bytes (80.01 GiB)"}, // 80.0 would read as the budget
		{85889489568, gib80, IEC, "85889489568 bytes (79.99 GiB)"}, // so would 80.0 below it
		{25769977608, poly.Int(25769803776), IEC, "25769977608 bytes (24.0002 GiB)"},
		{85899345920, gib80, IEC, "85899345920 bytes (80 GiB)"},   // the budget itself
		{35500589056, gib80, IEC, "35500589056 bytes (33.1 GiB)"}, // far from it: three digits
		{80000000001, poly.Int(80000000000), SI, "80000000001 bytes (80.000000001 GB)"},
		{80000000001, poly.Int(80000000000), Bytes, "80000000001 bytes"},
		{1000, poly.Int(1001), IEC, "1000 bytes"},                                    // under one unit: no figure
		{25759061920, poly.Int(25759061920), IEC, "25759061920 bytes (24.0 GiB)"},    // the budget itself, not in whole units
		{25769977608, poly.Int(25748000000), IEC, "25769977608 bytes (24.0002 GiB)"}, // over a budget Approx also writes 24.0 GiB
	} {
		if got := c.units.BytesBeside(poly.Int(c.x), c.ref); got != c.want {
			t.Errorf("%v.BytesBeside(%d, %s) = %q, want %q", c.units, c.x, c.ref, got, c.want)
		}
		// The figure, read back, lies on the value's side of the budget.
		if a := c.units.ApproxBeside(poly.Int(c.x), c.ref); a != "" && !poly.Int(c.x).Equal(c.ref) {
			back, err := ParseSize(strings.ReplaceAll(a, " ", ""))
			if err != nil || back.Cmp(c.ref) != poly.Int(c.x).Cmp(c.ref) {
				t.Errorf("%q reads as %s beside %s: %v", a, back, c.ref, err)
			}
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0"}, {"-7", "-7"}, {"1/2", "0.5"}, {"-1/8", "-0.125"}, {"3/20", "0.15"},
		{"1/1024", "0.0009765625"}, {"2/3", "2/3"}, {"1/6", "1/6"},
		{"123456789012345678901234567891/2", "61728394506172839450617283945.5"},
	} {
		r, _ := new(big.Rat).SetString(c.in)
		if got := Decimal(poly.FromBig(r)); got != c.want {
			t.Errorf("Decimal(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"80GiB", "85899345920"},
		{"24Gi", "25769803776"}, // a binary prefix alone, as Kubernetes writes sizes
		{"512mi", "536870912"},
		{"80GB", "80000000000"},
		{"8e10", "80000000000"},
		{"8E+10", "80000000000"},
		{"1.5GiB", "1610612736"},
		{"1.5 gib", "1610612736"},
		{"0.1KiB", "512/5"},
		{".5kB", "500"},
		{"2.5", "5/2"},
		{"12345", "12345"},
		{"1e-3", "1/1000"},
		{"3.", "3"},
		{"1EiB", "1152921504606846976"},
		{"16eib", "18446744073709551616"},
		{"0", "0"},
		{"24B", "24"},
		{"80gb", "80000000000"}, // lower case throughout: read as bytes, as written by hand
		{"1kb", "1000"},
	} {
		got, err := ParseSize(c.in)
		if err != nil {
			t.Errorf("ParseSize(%q): %v", c.in, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("ParseSize(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"80 gigs", `unknown unit "gigs"`},
		{"-5GB", "expected a size such as 80GiB"},
		{"80G", `"G" may mean GB (powers of 1000) or GiB (powers of 1024): say which`},
		{"8k", `"k" may mean kB (1000 bytes) or KiB (1024 bytes): say which`},
		{"80Gb", `"Gb" is a count of bits: for bytes write GB (powers of 1000) or GiB (powers of 1024)`},
		{"8Mb", `"Mb" is a count of bits: for bytes write MB`},
		{"1Gib", `"Gib" is a count of bits: for bytes write GB (powers of 1000) or GiB (powers of 1024)`},
		{"8Kib", `"Kib" is a count of bits: for bytes write kB (powers of 1000) or KiB (powers of 1024)`},
		{"1e999", "exponent 999: expected one from -30 to 30"},
		{"1e99999", "expected a size such as"},
		{"", "expected a size such as"},
		{"GiB", "expected a size such as"},
		{"1/2", "expected a size such as"},
		{"0x10", "expected a size such as"},
		{"1,5GiB", "expected a size such as"},
	} {
		_, err := ParseSize(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSize(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// TestParseSizeRoundTrip checks that every figure Bytes writes reads back
// as its value.
func TestParseSizeRoundTrip(t *testing.T) {
	for _, s := range []string{"0", "1", "49157/2", "35500589056", "17/8", "123456789012345678901234567890"} {
		r, _ := new(big.Rat).SetString(s)
		x := poly.FromBig(r)
		back, err := ParseSize(Decimal(x))
		if err != nil || !back.Equal(x) {
			t.Errorf("ParseSize(Decimal(%s)) = %v, %v", s, back, err)
		}
	}
}

func TestParseUnits(t *testing.T) {
	for _, u := range []Units{IEC, SI, Bytes} {
		got, err := ParseUnits(u.String())
		if err != nil || got != u {
			t.Errorf("ParseUnits(%q) = %v, %v", u.String(), got, err)
		}
	}
	if _, err := ParseUnits("GiB"); err == nil {
		t.Error("ParseUnits(GiB) succeeded")
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"80GiB", "8e10", "1.5 gib", "80G", "", ".5kB", "1e-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseSize(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseSize(%q): error spans lines", s)
			}
			return
		}
		if x.Sign() < 0 {
			t.Errorf("ParseSize(%q) = %s, negative", s, x)
		}
	})
}

// TestBudgetBeside: a budget exact in its unit is written so; else with
// its bytes and as many digits as put its figure on the right side of the
// needs' figures beside it.
func TestBudgetBeside(t *testing.T) {
	gib := func(s string) poly.Rat { return bigRat(t, s).Mul(poly.Int(1 << 30)) }
	for _, c := range []struct {
		budget poly.Rat
		needs  []poly.Rat
		want   string
	}{
		{gib("80"), []poly.Rat{gib("79.999")}, "80 GiB"},
		{poly.Int(80_000_000_000), nil, "80000000000 bytes (74.5 GiB)"},
		// The budget is 74.50580596… GiB; needs of 74.505805… GiB (they
		// fit) and 74.505815… GiB (they do not) put it between them, at
		// seven digits: at five, 74.506 GiB, it would read as more than
		// the needs that do not fit, whatever their digits.
		{poly.Int(80_000_000_000), []poly.Rat{poly.Int(79_999_999_000), poly.Int(80_000_010_000)}, "80000000000 bytes (74.50581 GiB)"},
		// 37.25290298… GiB beside needs written "37.253 GiB" that do not
		// fit: "37.3 GiB" would read as more than them.
		{poly.Int(40_000_000_000), []poly.Rat{poly.Int(40_000_100_000)}, "40000000000 bytes (37.25 GiB)"},
	} {
		if got := IEC.BudgetBeside(c.budget, c.needs...); got != c.want {
			t.Errorf("BudgetBeside(%s, %v) = %q, want %q", c.budget, c.needs, got, c.want)
		}
	}
}

// TestApproxAmong: needs in a row take as many digits as the budget's
// figure beside them shows, and fall on their side of it: under a budget
// of 22.35 GiB, needs 2 MB below it were "22.3 GiB" (50 MiB of room, it
// read) and, under 24 GB (22.352 GiB), needs 1.5 MB below it "22.35 GiB".
func TestApproxAmong(t *testing.T) {
	gib := func(s string) poly.Rat { return bigRat(t, s).Mul(poly.Int(1 << 30)) }
	for _, c := range []struct {
		budget poly.Rat
		row    []poly.Rat
		want   []string
	}{
		{gib("22.35"), []poly.Rat{poly.Int(23996025920), poly.Int(23998504448)}, []string{"22.348 GiB", "22.3503 GiB"}},
		{poly.Int(24_000_000_000), []poly.Rat{poly.Int(23998504448), poly.Int(24000983104)}, []string{"22.350 GiB", "22.353 GiB"}},
		// An exact budget shows two digits: the needs keep ApproxBeside's.
		{gib("24"), []poly.Rat{poly.Int(25767447104), poly.Int(25770015488)}, []string{"23.998 GiB", "24.0002 GiB"}},
	} {
		label := IEC.BudgetBeside(c.budget, c.row...)
		i := strings.LastIndex(label, "(")
		shown, err := ParseSize(strings.ReplaceAll(strings.TrimSuffix(label[i+1:], ")"), " ", ""))
		if err != nil {
			t.Fatalf("budget %q: %v", label, err)
		}
		for j, x := range c.row {
			got := IEC.ApproxAmong(x, c.budget, c.row...)
			if got != c.want[j] {
				t.Errorf("ApproxAmong(%s, %s) = %q beside %q, want %q", x, c.budget, got, label, c.want[j])
			}
			back, err := ParseSize(strings.ReplaceAll(got, " ", ""))
			if side := x.Cmp(c.budget); err != nil || back.Cmp(c.budget) != side || (i >= 0 && back.Cmp(shown) != side) ||
				significantDigits(got) < significantDigits(label[i+1:]) {
				t.Errorf("ApproxAmong(%s, %s) = %q does not read on its side of %q", x, c.budget, got, label)
			}
		}
	}
}

// Past EiB, where the figure has more than three whole digits, ApproxBeside
// still adds digits to tell needs from a budget: 10^30 bytes and one more
// than a budget of 10^30 read alike in whole EiB (867361737988 EiB).
func TestApproxBesidePastEiB(t *testing.T) {
	budget, _ := poly.ParseRat("1000000000000000000000000000000")
	x := budget.Add(poly.Int(1 << 40))
	short, beside := IEC.Approx(x), IEC.ApproxBeside(x, budget)
	if short != IEC.Approx(budget) {
		t.Fatalf("Approx tells them apart already (%q, %q): the test shows nothing", short, IEC.Approx(budget))
	}
	back, err := ParseSize(strings.ReplaceAll(beside, " ", ""))
	if err != nil || back.Cmp(budget) <= 0 {
		t.Errorf("ApproxBeside(%s, %s) = %q, which reads as %s, not over the budget (%v)", x, budget, beside, back, err)
	}
}

func TestByteCount(t *testing.T) {
	for _, c := range []struct {
		x    poly.Rat
		want string
	}{
		{poly.Int(1), "1 byte"},
		{poly.Int(0), "0 bytes"},
		{poly.Int(2), "2 bytes"},
		{poly.Frac(5, 2), "2.5 bytes"},
		{poly.Int(1024), "1024 bytes"},
	} {
		if got := ByteCount(c.x); got != c.want {
			t.Errorf("ByteCount(%s) = %q, want %q", c.x, got, c.want)
		}
	}
}
