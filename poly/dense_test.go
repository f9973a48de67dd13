package poly

import (
	"math/rand/v2"
	"testing"
)

// TestDenseShift checks DenseShift against Shift(Int(1)) on random
// polynomials with integer coefficients.
func TestDenseShift(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	vars := []string{"B", "T", "H"}
	for range 2000 {
		n := r.IntN(4)
		deg := make([]int, n)
		for j := range deg {
			deg[j] = r.IntN(5)
		}
		s := NewDenseShift(deg, 1<<10)
		var terms []Term
		for range r.IntN(8) {
			exp := make([]int, n)
			for j := range exp {
				exp[j] = r.IntN(deg[j] + 1)
			}
			terms = append(terms, Term{Coef: Int(r.Int64N(2001) - 1000), Exp: exp})
		}
		p := New(vars[:n], terms)
		dst := make([]int64, s.Len())
		if !s.Shifted(p, dst) {
			t.Fatalf("Shifted(%s) does not fit", p.ASCII())
		}
		want := make([]int64, s.Len())
		q := p.Shift(Int(1))
		for i := range q.Len() {
			c, exp := q.Term(i)
			want[s.Index(exp)], _ = c.Int64()
		}
		for i := range want {
			if dst[i] != want[i] {
				t.Fatalf("Shifted(%s) = %v, want %v (%s)", p.ASCII(), dst, want, q.ASCII())
			}
		}
	}
}

func TestDenseShiftLimits(t *testing.T) {
	if NewDenseShift([]int{9, 9, 9}, 512) != nil {
		t.Error("a layout of 1000 coefficients within 512")
	}
	if NewDenseShift([]int{61}, 1000) != nil {
		t.Error("a layout of degree 61")
	}
	s := NewDenseShift([]int{2, 1}, 512)
	if s == nil || s.Len() != 6 || s.Index([]int{2, 1}) != 5 {
		t.Fatalf("layout of degrees 2, 1: %+v", s)
	}
	dst := make([]int64, s.Len())
	for _, p := range []string{"3/2*B", "4611686018427387904*B^2", "99999999999999999999*T"} {
		if s.Shifted(WithVars(mustParse(t, p), []string{"B", "T"}), dst) {
			t.Errorf("Shifted(%s) fits in int64s", p)
		}
	}
	for _, tc := range []struct {
		p   string
		dst int
	}{{"B^3", 6}, {"T", 5}, {"B", 6}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Shifted(%s) into %d did not panic", tc.p, tc.dst)
				}
			}()
			q := WithVars(mustParse(t, tc.p), []string{"B", "T"})
			if tc.p == "B" {
				q = mustParse(t, "B") // one variable for two degrees
			}
			s.Shifted(q, make([]int64, tc.dst))
		}()
	}
}
