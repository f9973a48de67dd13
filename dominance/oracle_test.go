package dominance

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"memsym/internal/tooltest"
	"memsym/poly"
)

// z3Answer is what z3 says of "some integer point, every variable ≥ 1, has
// p < q": sat (with the point it found), unsat, or unknown (z3 could not
// tell within its time, or failed).
type z3Answer struct {
	verdict string              // "sat", "unsat" or "unknown"
	reals   bool                // unsat already over the reals ≥ 1, so over the integers
	model   map[string]*big.Int // for sat
	detail  string              // for unknown: what z3 printed or why it failed
}

// z3Timeout bounds each check: a hard one gives no information rather than
// hanging the test. The session waits twice as long before it gives up on
// z3 and starts another.
const z3Timeout = 5 * time.Second

// z3Session is one z3 process answering queries one after another, which
// spares a process's start for each.
type z3Session struct {
	path  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func newZ3Session(path string) (*z3Session, error) {
	s := &z3Session{path: path}
	return s, s.start()
}

func (s *z3Session) start() error {
	s.cmd = exec.Command(s.path, "-smt2", "-in")
	in, err := s.cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.in, s.lines = in, make(chan string, 64)
	go func(lines chan<- string) {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}(s.lines)
	return nil
}

func (s *z3Session) close() {
	s.in.Close()
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// send writes commands and returns what z3 prints until the end marker,
// or false if z3 died or outlived twice the timeout (it is then restarted).
func (s *z3Session) send(commands string) ([]string, bool) {
	const end = "memsym-end-of-answer"
	if _, err := io.WriteString(s.in, commands+"(echo \""+end+"\")\n"); err != nil {
		s.restart()
		return nil, false
	}
	var got []string
	deadline := time.After(2 * z3Timeout)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.restart()
				return got, false
			}
			if strings.TrimSpace(line) == end {
				return got, true
			}
			got = append(got, line)
		case <-deadline:
			s.restart()
			return got, false
		}
	}
}

func (s *z3Session) restart() {
	s.close()
	if err := s.start(); err != nil {
		panic(err) // z3 started before: a broken machine, not a finding
	}
}

// check sends one satisfiability question and returns z3's first line.
func (s *z3Session) check(logic, sort string, vars []string, p, q poly.Poly) string {
	cmds := fmt.Sprintf("(reset)\n(set-option :timeout %d)\n%s", z3Timeout.Milliseconds(), smtQuery(logic, sort, vars, p, q))
	lines, ok := s.send(cmds)
	if !ok || len(lines) == 0 {
		return "no answer"
	}
	return strings.TrimSpace(lines[0])
}

// ask asks whether q > p somewhere on the integers ≥ 1: over the reals ≥ 1
// first, in the session, whose unsat settles it and which z3 decides
// quickly; over the integers when the reals are sat or z3 cannot tell, in a
// process of its own, for z3 honours a time limit on integer arithmetic
// only as a command-line flag.
func (s *z3Session) ask(p, q poly.Poly) z3Answer {
	vars := unionVars(p.Used(), q.Used())
	if s.check("QF_NRA", "Real", vars, p, q) == "unsat" {
		return z3Answer{verdict: "unsat", reals: true}
	}
	return askIntegers(s.path, vars, p, q)
}

// askIntegers runs z3 once on the question over the integers.
func askIntegers(path string, vars []string, p, q poly.Poly) z3Answer {
	ctx, cancel := context.WithTimeout(context.Background(), 2*z3Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-smt2", "-in", fmt.Sprintf("-T:%d", int(z3Timeout/time.Second)))
	query := smtQuery("QF_NIA", "Int", vars, p, q)
	if len(vars) > 0 {
		query += "(get-value (|" + strings.Join(vars, "| |") + "|))\n"
	}
	cmd.Stdin = strings.NewReader(query)
	out, err := cmd.Output() // z3 exits non-zero on a timeout, or when unsat leaves no model to get
	first, rest, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	switch first = strings.TrimSpace(first); first {
	case "unsat":
		return z3Answer{verdict: "unsat"}
	case "sat":
		m, perr := parseZ3Values(rest, vars)
		if perr != nil {
			return z3Answer{verdict: "unknown", detail: fmt.Sprintf("sat, but its model: %v", perr)}
		}
		return z3Answer{verdict: "sat", model: m}
	case "":
		return z3Answer{verdict: "unknown", detail: fmt.Sprintf("no output: %v", err)}
	}
	return z3Answer{verdict: "unknown", detail: first}
}

// smtQuery writes the question in SMT-LIB 2: variables of the given sort,
// each ≥ 1, and p < q, both scaled by their common denominator to integer
// coefficients.
func smtQuery(logic, sort string, vars []string, p, q poly.Poly) string {
	den := big.NewInt(1)
	for _, x := range []poly.Poly{p, q} {
		for _, t := range x.Terms() {
			d := t.Coef.Den()
			g := new(big.Int).GCD(nil, nil, den, d)
			den.Mul(den, d.Quo(d, g))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "(set-logic %s)\n", logic)
	for _, v := range vars {
		fmt.Fprintf(&b, "(declare-const |%s| %s)\n(assert (>= |%s| 1))\n", v, sort, v)
	}
	fmt.Fprintf(&b, "(assert (< %s %s))\n(check-sat)\n", smtPoly(p, den), smtPoly(q, den))
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
func parseZ3Values(s string, vars []string) (map[string]*big.Int, error) {
	m := map[string]*big.Int{}
	for _, g := range z3Value.FindAllStringSubmatch(s, -1) {
		n, ok := new(big.Int).SetString(g[2], 10)
		if !ok {
			return nil, fmt.Errorf("%s = %s: not an integer", g[1], g[2])
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

// refutesBig is refutes at a point whose coordinates may exceed int64.
func refutesBig(p, q poly.Poly, w map[string]*big.Int) string {
	at := map[string]poly.Rat{}
	for _, v := range unionVars(p.Used(), q.Used()) {
		x, ok := w[v]
		if !ok || x.Sign() < 1 {
			return fmt.Sprintf("point %v: %s missing or below 1", w, v)
		}
		at[v] = poly.FromBigInt(x)
	}
	pv, err1 := p.Eval(at)
	qv, err2 := q.Eval(at)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("point %v: %v %v", w, err1, err2)
	}
	if qv.Cmp(pv) <= 0 {
		return fmt.Sprintf("point %v: q = %s does not exceed p = %s there", w, qv, pv)
	}
	return ""
}

// oraclePairs returns the pairs to ask z3 about: every ordered pair of the
// seed's candidates, then pairs of random sound sets, up to perVerdict of
// each verdict Dominates gives.
func oraclePairs(r *rand.Rand, perVerdict int) [][2]poly.Poly {
	seed := [][]string{{ // the course GPT's three candidates
		"48*B*T^2 + 12288*B*T + 8*T^2", "144*B*T^2 + 6144*B*T + 8*T^2", "27648*B*T + 8*T^2",
	}, { // the decoder block's four
		"81920*B*T + 4*T^2 + 16384*T", "128*B*T^2 + 65536*B*T + 4*T^2", "256*B*T^2 + 32768*B*T + 4*T^2", "148480*B*T",
	}}
	var pairs [][2]poly.Poly
	for _, set := range seed {
		for _, a := range set {
			for _, b := range set {
				if a != b {
					pa, _ := poly.Parse(a)
					pb, _ := poly.Parse(b)
					pairs = append(pairs, [2]poly.Poly{pa, pb})
				}
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

var oraclePerVerdict = flag.Int("oracle.pairs", 8, "random pairs of each verdict TestDominatesAgainstZ3 asks z3 about")

// TestDominatesAgainstZ3 compares Dominates with z3 on the seed's pairs
// and random ones: a Proven answer must be one z3 finds unsat, a Refuted
// one sat. Of the Undecided it counts what z3 decides, for the report; a
// model z3 gives is checked exactly before it counts against Dominates.
func TestDominatesAgainstZ3(t *testing.T) {
	path := tooltest.Need(t, "z3", "Dominates is not compared with z3 (apt-get install z3; .ci/run installs it)")
	perVerdict := *oraclePerVerdict
	if testing.Short() {
		perVerdict = 5
	}
	z3, err := newZ3Session(path)
	if err != nil {
		t.Fatalf("starting z3: %v", err)
	}
	defer z3.close()
	pairs := oraclePairs(rand.New(rand.NewPCG(17, 18)), perVerdict)
	tally := map[string]int{}
	for _, pq := range pairs {
		p, q := pq[0], pq[1]
		a := Dominates(p, q)
		z := z3.ask(p, q)
		key := a.Verdict.String() + "/" + z.verdict
		switch {
		case z.reals:
			key += " (over the reals)"
		case z.verdict == "sat" && beyond(z.model):
			key += " (beyond int64)"
		}
		tally[key]++
		switch {
		case a.Verdict == Proven && z.verdict == "sat":
			if msg := refutesBig(p, q, z.model); msg == "" {
				t.Errorf("Dominates(%s, %s) proven (%s), but z3 finds q > p at %v", p, q, a.Reason, z.model)
			} else {
				t.Logf("z3's model for proven Dominates(%s, %s) does not hold: %s", p, q, msg)
			}
		case a.Verdict == Refuted && z.verdict == "unsat":
			t.Errorf("Dominates(%s, %s) refuted at %v, but z3 says unsat: the query is wrong\n%s",
				p, q, a.Witness, smtQuery("QF_NIA", "Int", unionVars(p.Used(), q.Used()), p, q))
		case a.Verdict == Undecided && z.verdict == "sat":
			if msg := refutesBig(p, q, z.model); msg != "" {
				t.Logf("z3's model for undecided Dominates(%s, %s) does not hold: %s", p, q, msg)
				tally["undecided/sat, model wrong"]++
			} else if !beyond(z.model) {
				t.Logf("undecided, but z3 finds a witness: Dominates(%s, %s) fails at %v", p, q, z.model)
			}
		case z.verdict == "unknown" && z.detail != "unknown" && z.detail != "timeout":
			t.Logf("z3 gave no answer for (%s, %s): %s", p, q, z.detail)
		}
	}
	t.Logf("%d pairs; Dominates/z3: %s", len(pairs), tallyString(tally))
}

// beyond reports whether some coordinate of the point exceeds int64.
func beyond(m map[string]*big.Int) bool {
	for _, x := range m {
		if !x.IsInt64() {
			return true
		}
	}
	return false
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
