package poly

import (
	"maps"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSubst(t *testing.T) {
	tests := []struct {
		p, name string
		x       Rat
		want    string
		vars    []string
	}{
		{"B*T^2 + 3*B + T", "B", Int(2), "2*T^2 + T + 6", []string{"T"}},
		{"B*T^2 + 3*B + T", "T", Frac(1, 2), "13/4*B + 1/2", []string{"B"}},
		{"B*T - 2*T", "B", Int(2), "0", []string{"T"}},
		{"B*T", "H", Int(5), "B*T", []string{"B", "T"}},
		{"B^3", "B", Int(3037000500), "28011385488055777750125000000", nil},
	}
	for _, tc := range tests {
		got := mustParse(t, tc.p).Subst(tc.name, tc.x)
		checkCanonical(t, got)
		if got.ASCII() != tc.want || !slices.Equal(got.Vars(), tc.vars) {
			t.Errorf("Subst(%s = %s) of %s = %s over %v, want %s over %v", tc.name, tc.x, tc.p, got.ASCII(), got.Vars(), tc.want, tc.vars)
		}
	}
}

func TestShiftVar(t *testing.T) {
	tests := []struct{ p, name, want string }{
		{"B*T^2", "T", "B*T^2 + 2*B*T + B"},
		{"B*T^2", "B", "B*T^2 + T^2"},
		{"B*T^2", "H", "B*T^2"},
		{"T^2 - 2*T", "T", "T^2 - 1"},
	}
	for _, tc := range tests {
		got := mustParse(t, tc.p).ShiftVar(tc.name, Int(1))
		checkCanonical(t, got)
		if got.ASCII() != tc.want {
			t.Errorf("ShiftVar(%s) of %s = %s, want %s", tc.name, tc.p, got.ASCII(), tc.want)
		}
	}
}

func TestUnivariate(t *testing.T) {
	tests := []struct {
		p    string
		want []Rat
		ok   bool
	}{
		{"T^3 - 2*T + 1/2", []Rat{Frac(1, 2), Int(-2), {}, Int(1)}, true},
		{"7", []Rat{Int(7)}, true},
		{"0", nil, true},
		{"B*T", nil, false},
		{"B + 1", nil, false},
	}
	for _, tc := range tests {
		got, ok := mustParse(t, tc.p).Univariate("T")
		if ok != tc.ok || !slices.EqualFunc(got, tc.want, Rat.Equal) {
			t.Errorf("Univariate(T) of %s = %v, %v; want %v, %v", tc.p, got, ok, tc.want, tc.ok)
		}
	}
}

// TestEvalPositional checks EvalInts, Subst, ShiftVar, Term and Univariate
// against evalBig on random polynomials, also beyond int64.
func TestEvalPositional(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for i := range 3000 {
		p := randPoly(r)
		vars := p.Vars()
		ints := make([]int64, len(vars))
		at := map[string]Rat{}
		for j, v := range vars {
			ints[j] = r.Int64N(61) - 30
			if r.IntN(10) == 0 {
				ints[j] = r.Int64() - r.Int64()
			}
			at[v] = Int(ints[j])
		}
		for _, v := range pool {
			if _, ok := at[v]; !ok {
				at[v] = Int(r.Int64N(9) - 4)
			}
		}
		want := evalBig(p, at)
		if got := p.EvalInts(ints); got.Big().Cmp(want) != 0 {
			t.Fatalf("case %d: EvalInts(%v) of %s = %s, want %s", i, ints, p.ASCII(), got, want.RatString())
		}
		var terms []Term
		for k := range p.Len() {
			c, exp := p.Term(k)
			terms = append(terms, Term{Coef: c, Exp: slices.Clone(exp)})
		}
		if !slices.EqualFunc(terms, p.Terms(), func(a, b Term) bool { return a.Coef.Equal(b.Coef) && slices.Equal(a.Exp, b.Exp) }) {
			t.Fatalf("case %d: Term differs from Terms for %s", i, p.ASCII())
		}
		name := pool[r.IntN(len(pool))]
		s := p.Subst(name, at[name])
		checkCanonical(t, s)
		if slices.Contains(s.Vars(), name) && slices.Contains(vars, name) {
			t.Fatalf("case %d: Subst(%s) of %s kept %s", i, name, p.ASCII(), name)
		}
		if got := evalBig(s, at); got.Cmp(want) != 0 {
			t.Fatalf("case %d: Subst(%s = %s) of %s = %s: %s, want %s", i, name, at[name], p.ASCII(), s.ASCII(), got.RatString(), want.RatString())
		}
		by := randRat(r)
		sh := p.ShiftVar(name, by)
		checkCanonical(t, sh)
		moved := maps.Clone(at)
		moved[name] = at[name].Add(by)
		if got, want := evalBig(sh, at), evalBig(p, moved); got.Cmp(want) != 0 {
			t.Fatalf("case %d: ShiftVar(%s, %s) of %s = %s: %s, want %s", i, name, by, p.ASCII(), sh.ASCII(), got.RatString(), want.RatString())
		}
		line := p
		for _, v := range vars {
			if v != name {
				line = line.Subst(v, at[v])
			}
		}
		cs, ok := line.Univariate(name)
		if !ok {
			t.Fatalf("case %d: Univariate(%s) of %s refused", i, name, line.ASCII())
		}
		sum := new(big.Rat)
		for k := len(cs) - 1; k >= 0; k-- {
			sum.Mul(sum, at[name].Big()).Add(sum, cs[k].Big())
		}
		if sum.Cmp(want) != 0 || len(cs) > 0 && cs[len(cs)-1].IsZero() {
			t.Fatalf("case %d: Univariate(%s) of %s = %v", i, name, line.ASCII(), cs)
		}
	}
}

func TestEvalIntsPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("EvalInts with one value for two variables did not panic")
		}
	}()
	mustParse(t, "B*T").EvalInts([]int64{1})
}
