package poly

import "testing"

// dense returns Σ c·B^i·T^j for i, j < 9: 81 terms, as a buffer's bytes
// summed over a grid can give.
func dense(c int64) Poly {
	var terms []Term
	for i := range 9 {
		for j := range 9 {
			terms = append(terms, Term{Coef: Int(c + int64(9*i+j)), Exp: []int{i, j}})
		}
	}
	return New([]string{"B", "T"}, terms)
}

func BenchmarkAdd81(b *testing.B) {
	p, q := dense(1), dense(1000)
	b.ReportAllocs()
	for b.Loop() {
		p.Add(q)
	}
}

func BenchmarkAddSeed(b *testing.B) {
	p := mustParse(b, "48*B*T^2 + 12288*B*T + 8*T^2")
	q := mustParse(b, "8*B*T + 3072*T + 85745664")
	b.ReportAllocs()
	for b.Loop() {
		p.Add(q)
	}
}

func BenchmarkSum1e4(b *testing.B) {
	ps := make([]Poly, 10000)
	for i := range ps {
		ps[i] = New([]string{"B", "T"}, []Term{term(int64(i%97+1), 1, 1), term(int64(i%13), 0, 2), term(8, 0, 0)})
	}
	b.ReportAllocs()
	for b.Loop() {
		var s Poly
		for _, p := range ps {
			s = s.Add(p)
		}
	}
}

func BenchmarkMul9x9(b *testing.B) {
	p := mustParse(b, "B^2 + 3*B*T + T^2 + 5*B + 7*T + 11 + B^2*T + B*T^2 + 13*T^3")
	b.ReportAllocs()
	for b.Loop() {
		p.Mul(p)
	}
}

func BenchmarkShift81(b *testing.B) {
	p := dense(-40)
	b.ReportAllocs()
	for b.Loop() {
		p.Shift(Int(1))
	}
}

func BenchmarkEqual81(b *testing.B) {
	p, q := dense(1), dense(1)
	b.ReportAllocs()
	for b.Loop() {
		p.Equal(q)
	}
}

func BenchmarkEvalInt81(b *testing.B) {
	p := dense(1)
	at := map[string]int64{"B": 3, "T": 5}
	b.ReportAllocs()
	for b.Loop() {
		p.EvalInt(at)
	}
}

func BenchmarkString81(b *testing.B) {
	p := dense(1)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.String()
	}
}

func BenchmarkParse81(b *testing.B) {
	s := dense(1).ASCII()
	b.ReportAllocs()
	for b.Loop() {
		Parse(s)
	}
}
