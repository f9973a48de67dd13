package poly

import (
	"slices"
	"testing"
)

// mustParse is Parse for tests' literals.
func mustParse(t testing.TB, s string) Poly {
	t.Helper()
	p, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return p
}

// checkCanonical fails unless p's representation is canonical.
func checkCanonical(t testing.TB, p Poly) {
	t.Helper()
	if len(p.exps) != len(p.coefs)*len(p.vars) {
		t.Fatalf("%s: %d exponents for %d terms of %d variables", p.ASCII(), len(p.exps), len(p.coefs), len(p.vars))
	}
	for i, c := range p.coefs {
		if c.IsZero() {
			t.Fatalf("%s: term %d is zero", p.ASCII(), i)
		}
		if i > 0 && order(p.row(i-1), p.row(i)) >= 0 {
			t.Fatalf("%s: terms %d and %d out of order", p.ASCII(), i-1, i)
		}
	}
}

func term(c int64, exp ...int) Term { return Term{Coef: Int(c), Exp: exp} }

func TestNewCanonical(t *testing.T) {
	bt := []string{"B", "T"}
	tests := []struct {
		name  string
		vars  []string
		terms []Term
		want  string
	}{
		{"seed peak", bt, []Term{term(8, 0, 2), term(12288, 1, 1), term(48, 1, 2)}, "48*B*T^2 + 12288*B*T + 8*T^2"},
		{"seed inputs", bt, []Term{term(85745664, 0, 0), term(3072, 0, 1), term(8, 1, 1)}, "8*B*T + 3072*T + 85745664"},
		{"lex within a degree", bt, []Term{term(1, 0, 2), term(1, 2, 0), term(1, 1, 1)}, "B^2 + B*T + T^2"},
		{"merge", bt, []Term{term(2, 1, 0), term(3, 1, 0), term(-1, 0, 0)}, "5*B - 1"},
		{"merge to zero", bt, []Term{term(2, 1, 0), term(-2, 1, 0)}, "0"},
		{"drop zero", bt, []Term{term(0, 3, 3), term(7, 0, 1)}, "7*T"},
		{"no terms", bt, nil, "0"},
		{"no vars", nil, []Term{term(2), term(3)}, "5"},
		{"fractions", []string{"T"}, []Term{{Frac(1, 2), []int{1}}, {Frac(1, 3), []int{1}}}, "5/6*T"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(tc.vars, tc.terms)
			checkCanonical(t, p)
			if got := p.ASCII(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewCopiesInputs(t *testing.T) {
	vars := []string{"B", "T"}
	terms := []Term{term(3, 1, 2)}
	p := New(vars, terms)
	vars[0] = "X"
	terms[0].Exp[0] = 5
	terms[0].Coef = Int(9)
	if got := p.ASCII(); got != "3*B*T^2" {
		t.Fatalf("New kept its inputs: %q", got)
	}
	vs, ts := p.Vars(), p.Terms()
	vs[1] = "Y"
	ts[0].Exp[1] = 7
	if got := p.ASCII(); got != "3*B*T^2" {
		t.Fatalf("Vars or Terms shared storage: %q", got)
	}
}

func TestNewPanics(t *testing.T) {
	tests := []struct {
		name  string
		vars  []string
		terms []Term
	}{
		{"short exponents", []string{"B", "T"}, []Term{term(1, 1)}},
		{"negative exponent", []string{"B"}, []Term{term(1, -1)}},
		{"duplicate variable", []string{"B", "B"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("New did not panic")
				}
			}()
			New(tc.vars, tc.terms)
		})
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		p, q Poly
		want bool
	}{
		{mustParse(t, "B*T + T^2"), mustParse(t, "T^2 + T*B"), true},
		{mustParse(t, "B*T + T^2"), mustParse(t, "B*T + 2*T^2"), false},
		{mustParse(t, "B*T"), mustParse(t, "B*T^2"), false},
		{mustParse(t, "B + 1"), WithVars(mustParse(t, "B + 1"), []string{"X", "B", "Y"}), true},
		{mustParse(t, "B + 1"), mustParse(t, "T + 1"), false},
		{mustParse(t, "0*B"), Poly{}, true},
		{Const(Int(3)), mustParse(t, "3 + 0*T"), true},
		{Poly{}, Const(Int(1)), false},
	}
	for _, tc := range tests {
		if got := tc.p.Equal(tc.q); got != tc.want {
			t.Errorf("%s Equal %s = %v, want %v", tc.p.ASCII(), tc.q.ASCII(), got, tc.want)
		}
		if got := tc.q.Equal(tc.p); got != tc.want {
			t.Errorf("%s Equal %s = %v, want %v", tc.q.ASCII(), tc.p.ASCII(), got, tc.want)
		}
	}
}

func TestQueries(t *testing.T) {
	p := WithVars(mustParse(t, "48*B*T^2 + 12288*B*T + 8*T^2 - 1/2"), []string{"B", "H", "T"})
	if got := p.Vars(); !slices.Equal(got, []string{"B", "H", "T"}) {
		t.Errorf("Vars = %v", got)
	}
	if got := p.Used(); !slices.Equal(got, []string{"B", "T"}) {
		t.Errorf("Used = %v", got)
	}
	for _, c := range []struct {
		name string
		want int
	}{{"B", 1}, {"T", 2}, {"H", 0}, {"X", 0}} {
		if got := p.Degree(c.name); got != c.want {
			t.Errorf("Degree(%s) = %d, want %d", c.name, got, c.want)
		}
	}
	if got := p.TotalDegree(); got != 3 {
		t.Errorf("TotalDegree = %d", got)
	}
	if got := (Poly{}).TotalDegree(); got != 0 {
		t.Errorf("TotalDegree of 0 = %d", got)
	}
	if got := p.Len(); got != 4 {
		t.Errorf("Len = %d", got)
	}
	coefs := []struct {
		exp  map[string]int
		want Rat
	}{
		{map[string]int{"B": 1, "T": 2}, Int(48)},
		{map[string]int{"B": 1, "T": 1, "H": 0}, Int(12288)},
		{map[string]int{"T": 2}, Int(8)},
		{nil, Frac(-1, 2)},
		{map[string]int{"T": 1}, Int(0)},
		{map[string]int{"H": 1}, Int(0)},
		{map[string]int{"X": 1}, Int(0)},
		{map[string]int{"B": 5}, Int(0)},
	}
	for _, c := range coefs {
		if got := p.Coef(c.exp); !got.Equal(c.want) {
			t.Errorf("Coef(%v) = %s, want %s", c.exp, got, c.want)
		}
	}
	if c, ok := p.IsConst(); ok {
		t.Errorf("IsConst = %s, true", c)
	}
	if c, ok := mustParse(t, "7/3 + 0*B").IsConst(); !ok || !c.Equal(Frac(7, 3)) {
		t.Errorf("IsConst(7/3) = %s, %v", c, ok)
	}
}

func TestCollect(t *testing.T) {
	tests := []struct {
		p, name string
		want    []string
	}{
		{"48*B*T^2 + 12288*B*T + 8*T^2", "T", []string{"0", "12288*B", "48*B + 8"}},
		{"48*B*T^2 + 12288*B*T + 8*T^2", "B", []string{"8*T^2", "48*T^2 + 12288*T"}},
		{"48*B*T^2 + 3", "X", []string{"48*B*T^2 + 3"}},
		{"5", "T", []string{"5"}},
		{"T^3 - 1", "T", []string{"-1", "0", "0", "1"}},
	}
	for _, tc := range tests {
		p := mustParse(t, tc.p)
		cs := p.Collect(tc.name)
		var got []string
		for _, c := range cs {
			checkCanonical(t, c)
			if slices.Contains(c.Vars(), tc.name) {
				t.Errorf("Collect(%s) of %s kept %s", tc.name, tc.p, tc.name)
			}
			got = append(got, c.ASCII())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Collect(%s) of %s = %q, want %q", tc.name, tc.p, got, tc.want)
		}
	}
}

func TestWithVars(t *testing.T) {
	p := mustParse(t, "B^2 + T^3 + B*T")
	q := WithVars(p, []string{"T", "X", "B"})
	checkCanonical(t, q)
	if got := q.ASCII(); got != "T^3 + T*B + B^2" {
		t.Errorf("WithVars = %q", got)
	}
	if !q.Equal(p) || !WithVars(q, []string{"B", "T"}).Equal(p) {
		t.Error("WithVars changed the polynomial")
	}
	if got := WithVars(p, []string{"B", "T"}).ASCII(); got != p.ASCII() {
		t.Errorf("WithVars to the same order = %q", got)
	}
	for _, vars := range [][]string{{"B"}, {"B", "T", "B"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithVars(%v) did not panic", vars)
				}
			}()
			WithVars(p, vars)
		}()
	}
}
