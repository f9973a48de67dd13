package dominance

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"memsym/poly"
)

// z3Answer is what z3 says of "some integer point, every variable ≥ 1, has
// p < q": sat (with the point it found), unsat, or nothing (unknown, a
// timeout, a failure).
type z3Answer struct {
	verdict string // "sat", "unsat" or "unknown"
	model   map[string]int64
	detail  string // for unknown: what z3 printed or why it failed
}

// z3Timeout bounds each query: a hard one gives no information rather than
// hanging the test.
const z3Timeout = 5 * time.Second

// askZ3 asks the z3 binary at path whether q > p somewhere on the integers
// ≥ 1.
func askZ3(path string, p, q poly.Poly) z3Answer {
	vars := unionVars(p.Used(), q.Used())
	ctx, cancel := context.WithTimeout(context.Background(), 2*z3Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-smt2", "-in", fmt.Sprintf("-T:%d", int(z3Timeout/time.Second)))
	cmd.Stdin = strings.NewReader(smtQuery(vars, p, q))
	out, err := cmd.Output()
	first, rest, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	switch strings.TrimSpace(first) {
	case "unsat":
		return z3Answer{verdict: "unsat"}
	case "sat":
		m, perr := parseZ3Values(rest, vars)
		if perr != nil {
			return z3Answer{verdict: "unknown", detail: fmt.Sprintf("sat, but its model: %v", perr)}
		}
		return z3Answer{verdict: "sat", model: m}
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return z3Answer{verdict: "unknown", detail: err.Error()}
	}
	return z3Answer{verdict: "unknown", detail: strings.TrimSpace(first)}
}

// smtQuery writes the question in SMT-LIB 2: integer variables ≥ 1 and
// p < q, both scaled by their common denominator to integer coefficients.
func smtQuery(vars []string, p, q poly.Poly) string {
	den := big.NewInt(1)
	for _, x := range []poly.Poly{p, q} {
		for _, t := range x.Terms() {
			d := t.Coef.Den()
			g := new(big.Int).GCD(nil, nil, den, d)
			den.Mul(den, d.Quo(d, g))
		}
	}
	var b strings.Builder
	b.WriteString("(set-logic QF_NIA)\n")
	for _, v := range vars {
		fmt.Fprintf(&b, "(declare-const |%s| Int)\n(assert (>= |%s| 1))\n", v, v)
	}
	fmt.Fprintf(&b, "(assert (< %s %s))\n(check-sat)\n", smtPoly(p, den), smtPoly(q, den))
	if len(vars) > 0 {
		b.WriteString("(get-value (")
		for i, v := range vars {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "|%s|", v)
		}
		b.WriteString("))\n")
	}
	return b.String()
}

// smtPoly writes den·p as an SMT-LIB integer term.
func smtPoly(p poly.Poly, den *big.Int) string {
	var terms []string
	for _, t := range p.Terms() {
		c := new(big.Int).Mul(t.Coef.Num(), den)
		c.Quo(c, t.Coef.Den())
		factors := []string{smtInt(c)}
		for j, v := range p.Vars() {
			for range t.Exp[j] {
				factors = append(factors, "|"+v+"|")
			}
		}
		if len(factors) == 1 {
			terms = append(terms, factors[0])
		} else {
			terms = append(terms, "(* "+strings.Join(factors, " ")+")")
		}
	}
	switch len(terms) {
	case 0:
		return "0"
	case 1:
		return terms[0]
	}
	return "(+ " + strings.Join(terms, " ") + ")"
}

func smtInt(c *big.Int) string {
	if c.Sign() < 0 {
		return "(- " + new(big.Int).Neg(c).String() + ")"
	}
	return c.String()
}

var z3Value = regexp.MustCompile(`\(\|?([A-Za-z_][A-Za-z0-9_]*)\|?\s+(\d+)\)`)

// parseZ3Values reads z3's answer to get-value: ((|B| 3) (|T| 1000)).
func parseZ3Values(s string, vars []string) (map[string]int64, error) {
	m := map[string]int64{}
	for _, g := range z3Value.FindAllStringSubmatch(s, -1) {
		n, err := strconv.ParseInt(g[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s = %s: %w", g[1], g[2], err)
		}
		m[g[1]] = n
	}
	for _, v := range vars {
		if _, ok := m[v]; !ok {
			return nil, fmt.Errorf("no value of %s in %q", v, s)
		}
	}
	return m, nil
}

// oraclePairs returns the pairs to ask z3 about: every ordered pair of the
// seed's candidates, then pairs of random sound sets, up to perVerdict of
// each verdict Dominates gives.
func oraclePairs(r *rand.Rand, perVerdict int) [][2]poly.Poly {
	seed := []string{
		"48*B*T^2 + 12288*B*T + 8*T^2", "144*B*T^2 + 6144*B*T + 8*T^2", "27648*B*T + 8*T^2",
		"81920*B*T + 4*T^2 + 16384*T", "128*B*T^2 + 65536*B*T + 4*T^2", "256*B*T^2 + 32768*B*T + 4*T^2", "148480*B*T",
	}
	var pairs [][2]poly.Poly
	for _, a := range seed {
		for _, b := range seed {
			if a != b {
				pa, _ := poly.Parse(a)
				pb, _ := poly.Parse(b)
				pairs = append(pairs, [2]poly.Poly{pa, pb})
			}
		}
	}
	taken := map[Verdict]int{}
	for tries := 0; tries < 20000 && (taken[Proven] < perVerdict || taken[Refuted] < perVerdict || taken[Undecided] < perVerdict); tries++ {
		s := soundCandidates(r)
		p, q := s.cands[r.IntN(len(s.cands))].Poly, s.cands[r.IntN(len(s.cands))].Poly
		v := Dominates(p, q).Verdict
		if taken[v] < perVerdict {
			taken[v]++
			pairs = append(pairs, [2]poly.Poly{p, q})
		}
	}
	return pairs
}

// TestDominatesAgainstZ3 compares Dominates with z3 on a few hundred pairs:
// a Proven answer must be one z3 finds unsat, a Refuted one sat. Of the
// Undecided it counts what z3 decides, for the report.
func TestDominatesAgainstZ3(t *testing.T) {
	path, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("z3 not installed: apt-get install z3 (.ci/run installs it)")
	}
	perVerdict := 100
	if testing.Short() {
		perVerdict = 15
	}
	pairs := oraclePairs(rand.New(rand.NewPCG(17, 18)), perVerdict)
	tally := map[string]int{}
	for _, pq := range pairs {
		p, q := pq[0], pq[1]
		a := Dominates(p, q)
		z := askZ3(path, p, q)
		tally[a.Verdict.String()+"/"+z.verdict]++
		switch {
		case a.Verdict == Proven && z.verdict == "sat":
			if msg := refutes(p, q, z.model); msg == "" {
				t.Errorf("Dominates(%s, %s) proven (%s), but z3 finds q > p at %v", p, q, a.Reason, z.model)
			} else {
				t.Logf("z3's model for Dominates(%s, %s) does not hold: %s", p, q, msg)
			}
		case a.Verdict == Refuted && z.verdict == "unsat":
			t.Errorf("Dominates(%s, %s) refuted at %v, but z3 says unsat: the query is wrong\n%s", p, q, a.Witness, smtQuery(unionVars(p.Used(), q.Used()), p, q))
		case a.Verdict == Undecided && z.verdict == "sat":
			if msg := refutes(p, q, z.model); msg != "" {
				t.Logf("z3's model for undecided Dominates(%s, %s) does not hold: %s", p, q, msg)
				tally["undecided/sat, model wrong"]++
			}
		case z.verdict == "unknown" && z.detail != "unknown" && z.detail != "timeout":
			t.Logf("z3 gave no answer for (%s, %s): %s", p, q, z.detail)
		}
	}
	t.Logf("%d pairs; Dominates/z3: %s", len(pairs), tallyString(tally))
}

func tallyString(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
