package poly

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func bigRat(t *testing.T, s string) Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("bad literal %q", s)
	}
	return FromBig(r)
}

// isSmall reports whether x is held in int64s.
func isSmall(x Rat) bool { _, _, ok := x.Small(); return ok }

func TestRatOverflowAndBack(t *testing.T) {
	maxPlus := Int(math.MaxInt64).Add(Int(1))
	if isSmall(maxPlus) || maxPlus.String() != "9223372036854775808" {
		t.Fatalf("MaxInt64+1 = %s, small %v", maxPlus, isSmall(maxPlus))
	}
	back := maxPlus.Sub(Int(1))
	if !isSmall(back) || !back.Equal(Int(math.MaxInt64)) || back != Int(math.MaxInt64) {
		t.Fatalf("MaxInt64+1-1 = %s, small %v", back, isSmall(back))
	}
	sq := Int(math.MaxInt64).Mul(Int(math.MaxInt64))
	if got := sq.Quo(Int(math.MaxInt64)); !isSmall(got) || !got.Equal(Int(math.MaxInt64)) {
		t.Fatalf("MaxInt64² / MaxInt64 = %s", got)
	}
	f := Frac(1, math.MaxInt64).Mul(Frac(1, 3))
	if isSmall(f) || f.Mul(Int(3)) != Frac(1, math.MaxInt64) {
		t.Fatalf("1/MaxInt64 / 3 · 3 = %s", f.Mul(Int(3)))
	}
}

func TestRatMinInt64(t *testing.T) {
	minI := Int(math.MinInt64)
	tests := []struct {
		name string
		got  Rat
		want string
	}{
		{"Int", minI, "-9223372036854775808"},
		{"Neg", minI.Neg(), "9223372036854775808"},
		{"Neg Neg", minI.Neg().Neg(), "-9223372036854775808"},
		{"times -1", minI.Mul(Int(-1)), "9223372036854775808"},
		{"quo -1", minI.Quo(Int(-1)), "9223372036854775808"},
		{"sub 1", minI.Sub(Int(1)), "-9223372036854775809"},
		{"add -1 add 1", minI.Add(Int(-1)).Add(Int(1)), "-9223372036854775808"},
		{"Frac(min, -1)", Frac(math.MinInt64, -1), "9223372036854775808"},
		{"Frac(1, min)", Frac(1, math.MinInt64), "-1/9223372036854775808"},
		{"Frac(min, 2)", Frac(math.MinInt64, 2), "-4611686018427387904"},
		{"Frac(min, min)", Frac(math.MinInt64, math.MinInt64), "1"},
		{"1 quo min", Int(1).Quo(minI), "-1/9223372036854775808"},
		{"min abs in a sum", minI.Add(Int(math.MaxInt64)), "-1"},
	}
	for _, tc := range tests {
		if tc.got.String() != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, tc.got, tc.want)
		}
		if b := tc.got.Big(); isSmall(tc.got) != (b.Num().IsInt64() && b.Denom().IsInt64()) {
			t.Errorf("%s: small form is %v for %s", tc.name, isSmall(tc.got), tc.got)
		}
	}
	if n, ok := Frac(math.MinInt64, 2).Mul(Int(2)).Int64(); !ok || n != math.MinInt64 {
		t.Errorf("MinInt64/2·2 = %d, %v", n, ok)
	}
}

func TestRatCmp(t *testing.T) {
	tests := []struct {
		x, y Rat
		want int
	}{
		{Int(1), Int(2), -1},
		{Int(2), Int(1), 1},
		{Rat{}, Int(0), 0},
		{Frac(1, 3), Frac(1, 2), -1},
		{Frac(-1, 3), Frac(-1, 2), 1},
		{Frac(2, 4), Frac(1, 2), 0},
		{Int(math.MaxInt64), Int(math.MaxInt64).Add(Int(1)), -1},
		{Int(math.MinInt64), Int(math.MinInt64).Sub(Int(1)), 1},
		{Frac(math.MaxInt64, math.MaxInt64-1), Frac(math.MaxInt64-1, math.MaxInt64-2), -1},
		{Int(math.MinInt64), Int(math.MaxInt64), -1},
	}
	for _, tc := range tests {
		if got := tc.x.Cmp(tc.y); got != tc.want {
			t.Errorf("%s Cmp %s = %d, want %d", tc.x, tc.y, got, tc.want)
		}
		if got := tc.y.Cmp(tc.x); got != -tc.want {
			t.Errorf("%s Cmp %s = %d, want %d", tc.y, tc.x, got, -tc.want)
		}
		if got := tc.x.Equal(tc.y); got != (tc.want == 0) {
			t.Errorf("%s Equal %s = %v", tc.x, tc.y, got)
		}
	}
}

func TestRatQueries(t *testing.T) {
	var zero Rat
	if !zero.IsZero() || zero.Sign() != 0 || !zero.IsInt() || zero.String() != "0" || !zero.Equal(Int(0)) || zero.Den().Int64() != 1 {
		t.Error("the zero value is not 0")
	}
	x := Frac(-6, 4)
	if x.Sign() != -1 || x.IsInt() || x.String() != "-3/2" || x.Num().Int64() != -3 || x.Den().Int64() != 2 {
		t.Errorf("Frac(-6, 4) = %s", x)
	}
	if n, d, ok := x.Small(); !ok || n != -3 || d != 2 {
		t.Errorf("Small = %d, %d, %v", n, d, ok)
	}
	if _, ok := x.Int64(); ok {
		t.Error("Int64 of -3/2 succeeded")
	}
	if Frac(3, -6) != Frac(-1, 2) {
		t.Error("Frac does not normalize the sign")
	}
	if x.Float64() != -1.5 {
		t.Errorf("Float64 = %v", x.Float64())
	}
	b := bigRat(t, "-100000000000000000000/3")
	if b.Sign() != -1 || b.IsInt() || b.IsZero() {
		t.Errorf("queries of %s", b)
	}
	if _, _, ok := b.Small(); ok {
		t.Errorf("Small(%s) succeeded", b)
	}
	if FromBigInt(big.NewInt(7)) != Int(7) {
		t.Error("FromBigInt(7) is not small")
	}
}

func TestParseRat(t *testing.T) {
	good := []struct{ in, want string }{
		{"12", "12"}, {"-12", "-12"}, {"3/2", "3/2"}, {"6/4", "3/2"}, {"-3/2", "-3/2"},
		{"1.5", "3/2"}, {"0.125", "1/8"}, {"0", "0"},
		{"99999999999999999999", "99999999999999999999"},
	}
	for _, tc := range good {
		r, err := ParseRat(tc.in)
		if err != nil || r.String() != tc.want {
			t.Errorf("ParseRat(%q) = %s, %v; want %s", tc.in, r, err, tc.want)
		}
	}
	for _, in := range []string{"", "1e5", "1E5", "3/0", "3/-2", " 1", "1 ", "Inf", "NaN", "x", "1/2/3", "--1"} {
		if r, err := ParseRat(in); err == nil {
			t.Errorf("ParseRat(%q) = %s, want an error", in, r)
		}
	}
}

// TestRatAgainstBig checks the arithmetic against math/big around the edges
// of int64.
func TestRatAgainstBig(t *testing.T) {
	edges := []int64{0, 1, -1, 2, 3, 7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 31, 1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000500}
	r := rand.New(rand.NewPCG(5, 6))
	pick := func() Rat {
		n := edges[r.IntN(len(edges))]
		if r.IntN(3) == 0 {
			n = r.Int64() - r.Int64()
		}
		if r.IntN(2) == 0 {
			return Int(n)
		}
		d := edges[r.IntN(len(edges))]
		if d == 0 {
			d = 1
		}
		return Frac(n, d)
	}
	for range 20000 {
		x, y := pick(), pick()
		ops := []struct {
			name string
			got  Rat
			want *big.Rat
		}{
			{"+", x.Add(y), new(big.Rat).Add(x.Big(), y.Big())},
			{"-", x.Sub(y), new(big.Rat).Sub(x.Big(), y.Big())},
			{"*", x.Mul(y), new(big.Rat).Mul(x.Big(), y.Big())},
			{"neg", x.Neg(), new(big.Rat).Neg(x.Big())},
		}
		if !y.IsZero() {
			ops = append(ops, struct {
				name string
				got  Rat
				want *big.Rat
			}{"/", x.Quo(y), new(big.Rat).Quo(x.Big(), y.Big())})
		}
		for _, op := range ops {
			if op.got.Big().Cmp(op.want) != 0 {
				t.Fatalf("%s %s %s = %s, want %s", x, op.name, y, op.got, op.want.RatString())
			}
			fits := op.want.Num().IsInt64() && op.want.Denom().IsInt64()
			if isSmall(op.got) != fits {
				t.Fatalf("%s %s %s = %s held small %v", x, op.name, y, op.got, isSmall(op.got))
			}
		}
		if got := x.Cmp(y); got != x.Big().Cmp(y.Big()) {
			t.Fatalf("%s Cmp %s = %d", x, y, got)
		}
	}
}
