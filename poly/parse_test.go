package poly

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string // ASCII
		vars []string
	}{
		{"0", "0", nil},
		{"  42 ", "42", nil},
		{"-7", "-7", nil},
		{"+7", "7", nil},
		{"3/6", "1/2", nil},
		{"1.5", "3/2", nil},
		{"0.125*B", "1/8*B", []string{"B"}},
		{"T*B", "T*B", []string{"T", "B"}},
		{"T*T", "T^2", []string{"T"}},
		{"T^2*T", "T^3", []string{"T"}},
		{"2*3*B", "6*B", []string{"B"}},
		{"B*3", "3*B", []string{"B"}},
		{"B^0", "1", []string{"B"}},
		{"B - B", "0", []string{"B"}},
		{"x - 3*T", "x - 3*T", []string{"x", "T"}},
		{"8*T^2+12288*B*T+48*B*T^2", "48*T^2*B + 8*T^2 + 12288*T*B", []string{"T", "B"}},
		{"48 · B · T² + 12288 · B · T + 8 · T²", "48*B*T^2 + 12288*B*T + 8*T^2", []string{"B", "T"}},
		{"−3 · T − 1/2", "-3*T - 1/2", []string{"T"}},
		{"2×B⋅T¹⁰", "2*B*T^10", []string{"B", "T"}},
		{"B ^ 2 * T ²", "B^2*T^2", []string{"B", "T"}},
		{"\tseq_len2*d_model\n", "seq_len2*d_model", []string{"seq_len2", "d_model"}},
		{"é*λ", "é*λ", []string{"é", "λ"}},
		{"99999999999999999999*B - 1/99999999999999999999", "99999999999999999999*B - 1/99999999999999999999", []string{"B"}},
	}
	for _, tc := range tests {
		p, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		checkCanonical(t, p)
		if got := p.ASCII(); got != tc.want {
			t.Errorf("Parse(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := p.Vars(); !slices.Equal(got, tc.vars) {
			t.Errorf("Parse(%q) has variables %q, want %q", tc.in, got, tc.vars)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `column 1: expected a number or a variable (found the end)`},
		{"3*", `column 3: expected a number or a variable (found the end)`},
		{"3 + ", `column 5: expected a number or a variable (found the end)`},
		{"B^", `column 3: expected an exponent, a whole number (found the end)`},
		{"B^-1", `column 3: expected an exponent, a whole number (found "-")`},
		{"B^99999999999999999999", `column 3: expected an exponent of at most 65536 (found "99999999999999999999")`},
		{"3/0", `column 3: expected a nonzero denominator (found "0")`},
		{"3/", `column 3: expected a denominator (found the end)`},
		{"3/-2", `column 3: expected a denominator (found "-")`},
		{"1.", `column 3: expected a digit after the decimal point (found the end)`},
		{"1e5", `column 2: expected '*', '+', '-' or the end (found "e5")`},
		{"B T", `column 3: expected '*', '+', '-' or the end (found "T")`},
		{"2B", `column 2: expected '*', '+', '-' or the end (found "B")`},
		{"(B)", `column 1: expected a number or a variable, as parentheses are not supported (found "(")`},
		{"B*(T+1)", `column 3: expected a number or a variable, as parentheses are not supported (found "(")`},
		{"B/2", `column 2: expected '*', '+', '-' or the end (found "/")`},
		{"B + -T", `column 5: expected a number or a variable (found "-")`},
		{"T² · ²", `column 6: expected a number or a variable (found "²")`},
		{"1.5/2", `column 4: expected '*', '+', '-' or the end (found "/")`},
		{"B^2^3", `column 4: expected '*', '+', '-' or the end (found "^")`},
		{"λ·μ·?", `column 5: expected a number or a variable (found "?")`},
		{"B\xff", "column 2: expected '*', '+', '-' or the end (found \"\ufffd\")"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %s", tc.in, tc.want)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T is not a *ParseError", tc.in, err)
		}
		if err.Error() != tc.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tc.in, err, tc.want)
		}
	}
}

// TestRoundTrip parses random polynomials back from both notations.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		p := randPoly(r)
		checkRoundTrip(t, p)
	}
}

// checkRoundTrip checks that Parse reads p back from ASCII and String,
// exactly, and that over p's variable order it prints identically.
func checkRoundTrip(t testing.TB, p Poly) {
	t.Helper()
	for _, s := range []string{p.ASCII(), p.String()} {
		q, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		checkCanonical(t, q)
		if !q.Equal(p) {
			t.Fatalf("Parse(%q) = %s", s, q.ASCII())
		}
		q = WithVars(q, p.Vars())
		if q.ASCII() != p.ASCII() || q.String() != p.String() || q.LaTeX() != p.LaTeX() {
			t.Fatalf("Parse(%q) prints as %q", s, q.ASCII())
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"48*B*T^2 + 12288*B*T + 8*T^2", "48 · B · T² + 12288 · B · T + 8 · T²",
		"-3/2*T + 0.25", "−x − 3 · T", "T*T*B^0", "99999999999999999999*B - 1/3",
		"3*", "B^-1", "(B)", "1e5", "B T", "2×B⋅T¹⁰", "seq_len*d_model",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Col < 1 || pe.Col > len([]rune(s))+1 {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		checkCanonical(t, p)
		checkRoundTrip(t, p)
	})
}
