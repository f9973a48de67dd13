package poly

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestArithmetic(t *testing.T) {
	tests := []struct {
		op, p, q, want string
	}{
		{"+", "B*T + 1", "T^2 - 1", "B*T + T^2"},
		{"+", "B", "T", "B + T"},
		{"+", "T", "B", "T + B"}, // p's variables first
		{"+", "2*B", "-2*B", "0"},
		{"+", "0", "3/2*B", "3/2*B"},
		{"+", "9223372036854775807*B", "B", "9223372036854775808*B"},
		{"-", "B*T + 1", "B*T", "1"},
		{"-", "0", "B - 1", "-B + 1"},
		{"-", "9223372036854775808*B", "B", "9223372036854775807*B"},
		{"*", "B + T", "B - T", "B^2 - T^2"},
		{"*", "T + B", "B + 1", "T*B + B^2 + T + B"},
		{"*", "3/2*T", "2/3", "T"},
		{"*", "B + 1", "0", "0"},
		{"*", "B^2*T + 4", "T", "B^2*T^2 + 4*T"},
		{"*", "4294967296*B", "4294967296*B", "18446744073709551616*B^2"},
	}
	for _, tc := range tests {
		p, q := mustParse(t, tc.p), mustParse(t, tc.q)
		var got Poly
		switch tc.op {
		case "+":
			got = p.Add(q)
		case "-":
			got = p.Sub(q)
		case "*":
			got = p.Mul(q)
		}
		checkCanonical(t, got)
		if got.ASCII() != tc.want {
			t.Errorf("(%s) %s (%s) = %s, want %s", tc.p, tc.op, tc.q, got.ASCII(), tc.want)
		}
	}
}

func TestUnaryOps(t *testing.T) {
	tests := []struct {
		name string
		f    func(Poly) Poly
		p    string
		want string
	}{
		{"neg", Poly.Neg, "B*T - 3/2", "-B*T + 3/2"},
		{"neg min", Poly.Neg, "-9223372036854775808*B", "9223372036854775808*B"},
		{"scale", func(p Poly) Poly { return p.Scale(Frac(2, 3)) }, "3*B + 1", "2*B + 2/3"},
		{"scale 0", func(p Poly) Poly { return p.Scale(Int(0)) }, "3*B + 1", "0"},
		{"pow 0", func(p Poly) Poly { return p.Pow(0) }, "B + T", "1"},
		{"pow 3", func(p Poly) Poly { return p.Pow(3) }, "B + 1", "B^3 + 3*B^2 + 3*B + 1"},
		{"shift 1", func(p Poly) Poly { return p.Shift(Int(1)) }, "B*T", "B*T + B + T + 1"},
		{"shift 1 square", func(p Poly) Poly { return p.Shift(Int(1)) }, "T^2 - 2*T", "T^2 - 1"},
		{"shift -1", func(p Poly) Poly { return p.Shift(Int(-1)) }, "T^2 - 1", "T^2 - 2*T"},
		{"shift 1/2", func(p Poly) Poly { return p.Shift(Frac(1, 2)) }, "4*T^2", "4*T^2 + 4*T + 1"},
		{"shift constant", func(p Poly) Poly { return p.Shift(Int(1)) }, "7", "7"},
		{"shift zero", func(p Poly) Poly { return p.Shift(Int(1)) }, "0", "0"},
		{"shift seed", func(p Poly) Poly { return p.Shift(Int(1)) }, "144*B*T^2 + 6144*B*T + 8*T^2 - 27648*B*T - 8*T^2",
			"144*B*T^2 - 21216*B*T + 144*T^2 - 21360*B - 21216*T - 21360"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.f(mustParse(t, tc.p))
			checkCanonical(t, got)
			if got.ASCII() != tc.want {
				t.Errorf("got %s, want %s", got.ASCII(), tc.want)
			}
		})
	}
}

// The properties below check the arithmetic against evalBig, an evaluator
// written with math/big alone, at random points.

var pool = []string{"B", "T", "H", "seq"}

// randRat returns a small integer, a fraction, or a value beyond int64.
func randRat(r *rand.Rand) Rat {
	switch r.IntN(6) {
	case 0:
		return Frac(r.Int64N(41)-20, r.Int64N(9)+1)
	case 1:
		x := new(big.Int).Lsh(big.NewInt(r.Int64N(1000)+1), uint(60+r.IntN(40)))
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		return FromBigInt(x)
	case 2:
		return Int(r.Int64() - r.Int64())
	}
	return Int(r.Int64N(201) - 100)
}

// randPoly returns a random polynomial over a random order of some of pool.
func randPoly(r *rand.Rand) Poly {
	vars := make([]string, 0, len(pool))
	for _, i := range r.Perm(len(pool))[:r.IntN(len(pool)+1)] {
		vars = append(vars, pool[i])
	}
	terms := make([]Term, r.IntN(8))
	for i := range terms {
		exp := make([]int, len(vars))
		for j := range exp {
			exp[j] = r.IntN(4)
		}
		terms[i] = Term{Coef: randRat(r), Exp: exp}
	}
	return New(vars, terms)
}

func randPoint(r *rand.Rand) map[string]Rat {
	at := make(map[string]Rat)
	for _, v := range pool {
		at[v] = Frac(r.Int64N(61)-30, r.Int64N(4)+1)
	}
	return at
}

// evalBig evaluates p's terms at at with math/big.
func evalBig(p Poly, at map[string]Rat) *big.Rat {
	total := new(big.Rat)
	vars := p.Vars()
	for _, tm := range p.Terms() {
		x := tm.Coef.Big()
		for j, e := range tm.Exp {
			for range e {
				x.Mul(x, at[vars[j]].Big())
			}
		}
		total.Add(total, x)
	}
	return total
}

func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		p, q := randPoly(r), randPoly(r)
		at := randPoint(r)
		pv, qv := evalBig(p, at), evalBig(q, at)
		checks := []struct {
			name string
			got  Poly
			want *big.Rat
			at   map[string]Rat
		}{
			{"p+q", p.Add(q), new(big.Rat).Add(pv, qv), at},
			{"p-q", p.Sub(q), new(big.Rat).Sub(pv, qv), at},
			{"p*q", p.Mul(q), new(big.Rat).Mul(pv, qv), at},
			{"-p", p.Neg(), new(big.Rat).Neg(pv), at},
			{"p^2", p.Pow(2), new(big.Rat).Mul(pv, pv), at},
			{"3/7 p", p.Scale(Frac(3, 7)), new(big.Rat).Mul(pv, big.NewRat(3, 7)), at},
		}
		shifted := make(map[string]Rat)
		for v, x := range at {
			shifted[v] = x.Add(Int(1))
		}
		checks = append(checks, struct {
			name string
			got  Poly
			want *big.Rat
			at   map[string]Rat
		}{"Shift(1)", p.Shift(Int(1)), evalBig(p, shifted), at})
		for _, c := range checks {
			checkCanonical(t, c.got)
			if got := evalBig(c.got, c.at); got.Cmp(c.want) != 0 {
				t.Fatalf("case %d: %s with p = %s, q = %s: %s at %v, want %s", i, c.name, p.ASCII(), q.ASCII(), got.RatString(), c.at, c.want.RatString())
			}
		}
		v, err := p.Eval(at)
		if err != nil || v.Big().Cmp(pv) != 0 {
			t.Fatalf("case %d: Eval(%s) = %s, %v; want %s", i, p.ASCII(), v, err, pv.RatString())
		}
		if !p.Sub(q).Add(q).Equal(p) || !p.Add(q).Equal(q.Add(p)) || !p.Mul(q).Equal(q.Mul(p)) {
			t.Fatalf("case %d: ring laws fail for p = %s, q = %s", i, p.ASCII(), q.ASCII())
		}
		if !p.Sub(p).IsZero() {
			t.Fatalf("case %d: p - p = %s", i, p.Sub(p).ASCII())
		}
		if !p.Shift(Int(1)).Shift(Int(-1)).Equal(p) {
			t.Fatalf("case %d: Shift(1) then Shift(-1) of %s", i, p.ASCII())
		}
		checkCollect(t, p)
		checkWithVars(t, r, p)
	}
}

// checkCollect reassembles p from Collect.
func checkCollect(t *testing.T, p Poly) {
	t.Helper()
	for _, v := range append(pool, "X") {
		cs := p.Collect(v)
		if len(cs) != p.Degree(v)+1 {
			t.Fatalf("Collect(%s) of %s has %d parts", v, p.ASCII(), len(cs))
		}
		var sum Poly
		for i, c := range cs {
			checkCanonical(t, c)
			if c.Degree(v) != 0 {
				t.Fatalf("Collect(%s) of %s: part %d has %s", v, p.ASCII(), i, v)
			}
			sum = sum.Add(c.Mul(Var(v).Pow(i)))
		}
		if !sum.Equal(p) {
			t.Fatalf("Collect(%s) of %s reassembles to %s", v, p.ASCII(), sum.ASCII())
		}
	}
}

// checkWithVars reorders p's variables and checks nothing else changes.
func checkWithVars(t *testing.T, r *rand.Rand, p Poly) {
	t.Helper()
	vars := p.Vars()
	r.Shuffle(len(vars), func(i, j int) { vars[i], vars[j] = vars[j], vars[i] })
	q := WithVars(p, append(vars, "Y"))
	checkCanonical(t, q)
	if !q.Equal(p) || !p.Equal(q) {
		t.Fatalf("WithVars(%v) of %s = %s, not equal", vars, p.ASCII(), q.ASCII())
	}
	if got := WithVars(q, p.Vars()); got.ASCII() != p.ASCII() {
		t.Fatalf("WithVars there and back of %s = %s", p.ASCII(), got.ASCII())
	}
}
