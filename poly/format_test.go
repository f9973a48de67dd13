package poly

import (
	"math/big"
	"testing"
)

func TestNotations(t *testing.T) {
	big64, _ := new(big.Int).SetString("18446744073709551616", 10) // 2^64
	tests := []struct {
		name                string
		p                   Poly
		display, ascii, tex string
	}{
		{"zero", Poly{}, "0", "0", "0"},
		{"zero with vars", New([]string{"B"}, nil), "0", "0", "0"},
		{"constant", Const(Int(85745664)), "85745664", "85745664", "85745664"},
		{"one", Const(Int(1)), "1", "1", "1"},
		{"minus one", Const(Int(-1)), "−1", "-1", "-1"},
		{"negative constant", Const(Frac(-3, 2)), "−3/2", "-3/2", `-\tfrac{3}{2}`},
		{"variable", Var("T"), "T", "T", "T"},
		{"seed peak", New([]string{"B", "T"}, []Term{term(48, 1, 2), term(12288, 1, 1), term(8, 0, 2)}),
			"48 · B · T² + 12288 · B · T + 8 · T²",
			"48*B*T^2 + 12288*B*T + 8*T^2",
			`48\,B\,T^{2} + 12288\,B\,T + 8\,T^{2}`},
		{"seed inputs", New([]string{"B", "T"}, []Term{term(8, 1, 1), term(3072, 0, 1), term(85745664, 0, 0)}),
			"8 · B · T + 3072 · T + 85745664",
			"8*B*T + 3072*T + 85745664",
			`8\,B\,T + 3072\,T + 85745664`},
		{"unit coefficient", New([]string{"B", "T"}, []Term{term(1, 1, 1)}), "B · T", "B*T", `B\,T`},
		{"rational", New([]string{"T"}, []Term{{Frac(3, 2), []int{1}}}), "3/2 · T", "3/2*T", `\tfrac{3}{2}\,T`},
		{"negative later term", New([]string{"x", "T"}, []Term{term(1, 1, 0), term(-3, 0, 1)}), "x − 3 · T", "x - 3*T", `x - 3\,T`},
		{"leading negative", New([]string{"T"}, []Term{term(-3, 1), term(1, 0)}), "−3 · T + 1", "-3*T + 1", `-3\,T + 1`},
		{"leading minus one", New([]string{"T"}, []Term{term(-1, 2)}), "−T²", "-T^2", `-T^{2}`},
		{"negative fraction", New([]string{"T"}, []Term{term(1, 1), {Frac(-1, 3), []int{0}}}), "T − 1/3", "T - 1/3", `T - \tfrac{1}{3}`},
		{"big", New([]string{"B"}, []Term{{FromBigInt(big64), []int{1}}, {FromBigInt(new(big.Int).Neg(big64)), []int{0}}}),
			"18446744073709551616 · B − 18446744073709551616",
			"18446744073709551616*B - 18446744073709551616",
			`18446744073709551616\,B - 18446744073709551616`},
		{"big fraction", Const(FromBig(new(big.Rat).SetFrac(big64, big.NewInt(3)))),
			"18446744073709551616/3", "18446744073709551616/3", `\tfrac{18446744073709551616}{3}`},
		{"high exponents", New([]string{"T"}, []Term{term(2, 10), term(1, 3)}), "2 · T¹⁰ + T³", "2*T^10 + T^3", `2\,T^{10} + T^{3}`},
		{"multi-letter names", New([]string{"seq", "d_model"}, []Term{term(4, 2, 1)}),
			"4 · seq² · d_model", "4*seq^2*d_model", `4\,\mathit{seq}^{2}\,\mathit{d\_model}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.String(); got != tc.display {
				t.Errorf("String = %q, want %q", got, tc.display)
			}
			if got := tc.p.ASCII(); got != tc.ascii {
				t.Errorf("ASCII = %q, want %q", got, tc.ascii)
			}
			if got := tc.p.LaTeX(); got != tc.tex {
				t.Errorf("LaTeX = %q, want %q", got, tc.tex)
			}
			for _, s := range []string{tc.display, tc.ascii} {
				q, err := Parse(s)
				if err != nil || !q.Equal(tc.p) {
					t.Errorf("Parse(%q) = %s, %v", s, q.ASCII(), err)
				}
			}
		})
	}
}
