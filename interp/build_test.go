package interp

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"memsym/poly"
	"memsym/record"
)

// randNonNegative returns a random polynomial of degree at most 2 in each
// of k variables that is not negative at any positive point: coefficients
// of either size and rational, all non-negative, plus γ·(α·x_i − β)², whose
// linear coefficient is negative.
func randNonNegative(r *rand.Rand, k int) []*big.Rat {
	n := 1
	for range k {
		n *= 3
	}
	c := make([]*big.Rat, n)
	for a := range c {
		c[a] = new(big.Rat).Abs(randCoef(r))
	}
	if k > 0 {
		i := r.IntN(k)
		stride := 1
		for range k - 1 - i {
			stride *= 3
		}
		alpha, beta := big.NewRat(r.Int64N(9)+1, 1), big.NewRat(r.Int64N(1000), 1)
		gamma := big.NewRat(r.Int64N(7)+1, r.Int64N(4)+1)
		sq := new(big.Rat).Mul(alpha, alpha)
		c[2*stride].Add(c[2*stride], sq.Mul(sq, gamma))
		lin := new(big.Rat).Mul(alpha, beta)
		lin.Mul(lin, gamma)
		c[stride].Sub(c[stride], lin.Add(lin, lin))
		b2 := new(big.Rat).Mul(beta, beta)
		c[0].Add(c[0], b2.Mul(b2, gamma))
	}
	return c
}

// densePoly converts coefficients indexed as the solver indexes them.
func densePoly(vars []string, c []*big.Rat) poly.Poly {
	var terms []poly.Term
	for a, coef := range c {
		exp := make([]int, len(vars))
		for i, q := len(vars)-1, a; i >= 0; i, q = i-1, q/3 {
			exp[i] = q % 3
		}
		terms = append(terms, poly.Term{Coef: poly.FromBig(coef), Exp: exp})
	}
	return poly.New(vars, terms)
}

// chain records a program whose buffers have the given polynomials' bytes:
// a parameter (the first), an input (the second), and temps made one after
// another, each reading the one before, the parameter and a view; the last
// temp is the result.
func chain(vars []string, polys []poly.Poly) program {
	return func(r *record.Recorder, at map[string]int64) {
		value := func(j int) poly.Rat {
			v, err := polys[j].EvalInt(at)
			if err != nil {
				panic(err)
			}
			return v
		}
		p := r.Bytes(record.Param, "w", "layer", value(0))
		prev := r.Bytes(record.Input, "x", "", value(1))
		for j := 2; j < len(polys); j++ {
			next := r.Bytes(record.Temp, fmt.Sprintf("t%d", j), "", value(j))
			v := r.View(prev, "whole", record.DType{})
			r.Op(fmt.Sprintf("Step.apply/%%%d", j), fmt.Sprintf("steps[%d]", j), []int64{v, p}, []int64{next})
			prev = next
		}
		r.Result(prev)
	}
}

// TestBuildRecoversRandomPolynomials records programs whose buffers' bytes
// are random polynomials in up to 4 dimensions, on random grids up to 10^9,
// and checks that Build gives back each polynomial and their sums exactly.
func TestBuildRecoversRandomPolynomials(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	names := []string{"B", "T", "S", "N"}
	tops := []int64{6, 300, 1_000_000_000}
	for trial := range 24 {
		k := trial % 5
		vars := names[:k]
		top := tops[r.IntN(len(tops))]
		grid := make([][3]int64, k)
		check := make([]int64, k)
		for i := range grid {
			grid[i] = randAxis(r, top)
			check[i] = grid[i][2] + 1 + r.Int64N(5)
		}
		polys := make([]poly.Poly, 2+r.IntN(5))
		for j := range polys {
			polys[j] = densePoly(vars, randNonNegative(r, k))
		}
		if r.IntN(2) == 0 {
			polys[len(polys)-1] = polys[len(polys)-2] // two buffers, one vector
		}
		prog := chain(vars, polys)
		m := mustBuild(t, gridSources(t, vars, grid, prog), []Source{pointSource(t, vars, check, prog)})
		// Buffers are declared p, x, then per step: temp, view.
		var got []poly.Poly
		for pos, b := range m.Structure.Buffers.All() {
			if b.IsView {
				if !m.Bytes(pos).IsZero() {
					t.Fatalf("trial %d: view %d has bytes %s", trial, b.ID, m.Bytes(pos))
				}
				continue
			}
			got = append(got, m.Bytes(pos))
		}
		for j := range polys {
			if !got[j].Equal(polys[j]) {
				t.Fatalf("trial %d on %v: buffer %d is %s, want %s", trial, grid, j, got[j], polys[j])
			}
		}
		if !m.Params.Equal(polys[0]) || !m.Inputs.Equal(polys[0].Add(polys[1])) || !m.Outputs.Equal(polys[len(polys)-1]) {
			t.Fatalf("trial %d: params %s, inputs %s, outputs %s", trial, m.Params, m.Inputs, m.Outputs)
		}
		for _, point := range [][]int64{check, gridPoint(grid, r)} {
			rec := recordAt(t, vars, point, prog)
			for op, want := range liveBytes(rec) {
				if got := evalAt(t, m.Live(op+1), vars, point); !got.Equal(want) {
					t.Fatalf("trial %d at %v: operation %d has %s live bytes, want %s", trial, point, op+1, got, want)
				}
			}
		}
		if want := [][]int64{check}; !slices.EqualFunc(m.Checked, want, slices.Equal) {
			t.Errorf("Checked = %v, want %v", m.Checked, want)
		}
	}
}

// gridPoint returns a random point of the grid.
func gridPoint(grid [][3]int64, r *rand.Rand) []int64 {
	p := make([]int64, len(grid))
	for i := range grid {
		p[i] = grid[i][r.IntN(3)]
	}
	return p
}

// TestBuildHugeValues takes dimensions near 10^9, so that bytes pass 2^63,
// and half bytes of int4.
func TestBuildHugeValues(t *testing.T) {
	vars := []string{"B", "T"}
	grid := [][3]int64{{999_999_997, 999_999_998, 1_000_000_000}, {1, 999_999_999, 1_000_000_000}}
	i4, f64 := record.MustDType("i4"), record.MustDType("f64")
	prog := func(r *record.Recorder, at map[string]int64) {
		b, tt := at["B"], at["T"]
		x := r.Input("x", "", i4, b, tt)
		s := r.Temp("scores", "", f64, b, tt, tt)
		h := r.Temp("h", "", i4, tt, 3)
		r.Op("Scores/%0", "attn", []int64{x}, []int64{s})
		r.Op("Pack/%1", "attn", []int64{s}, []int64{h})
		r.Result(h)
	}
	check := []int64{1_000_000_007, 1_000_000_011}
	m := mustBuild(t, gridSources(t, vars, grid, prog), []Source{pointSource(t, vars, check, prog)})
	for _, tt := range []struct {
		got  poly.Poly
		want string
	}{
		{m.Bytes(0), "1/2 · B · T"},
		{m.Bytes(1), "8 · B · T²"},
		{m.Bytes(2), "3/2 · T"},
		{m.Live(1), "8 · B · T²"},
		{m.Live(2), "8 · B · T² + 3/2 · T"},
	} {
		if tt.got.String() != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
	if d := m.Denominator(); d.Cmp(big.NewInt(2)) != 0 {
		t.Errorf("Denominator() = %s, want 2", d)
	}
	if v := evalAt(t, m.Live(2), vars, check); v.String() != "16000000464000004403000013585/2" {
		t.Errorf("live bytes at %v = %s", check, v)
	}
}
