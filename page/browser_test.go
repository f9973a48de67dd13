package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"memsym/doc"
	"memsym/internal/tooltest"
	"memsym/interp"
	"memsym/model"
	"memsym/poly"
	"memsym/source"
)

// m4Runs is how many random settings of the controls M4 tries per program.
const m4Runs = 21

// browsers is how many headless browsers M4 runs at once: a browser spends
// most of its start waiting.
const browsers = 3

// chromium loads url headless, lets its script run to the end, and returns
// the DOM it leaves and the console's messages.
func chromium(t *testing.T, bin, url string) (dom string, console []string) {
	t.Helper()
	return chromiumWithin(t, bin, url, 5*time.Minute)
}

// chromiumWithin is chromium, failing the test when the page has not
// finished within limit.
func chromiumWithin(t *testing.T, bin, url string, limit time.Duration) (dom string, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=3600000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			t.Fatalf("chromium %s: the page had not finished after %v", url, limit)
		}
		t.Fatalf("chromium %s: %v\n%s", url, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	return stdout.String(), console
}

// writePage writes m's page into a fresh directory and returns its URL.
func writePage(t *testing.T, m *model.Model, name string) string {
	t.Helper()
	path, err := Write(m, t.TempDir(), name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// writePageOf writes pg into a fresh directory and returns its URL.
func writePageOf(t *testing.T, pg *Page, name string) string {
	t.Helper()
	var b bytes.Buffer
	if err := pg.Render(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// shownRun is one random setting of the controls and what the page showed.
type shownRun struct {
	X      []string          `json:"x"`
	Types  []string          `json:"types"`
	Budget string            `json:"budget"`
	Shown  map[string]string `json:"shown"`
}

var testOut = regexp.MustCompile(`(?s)<pre id="memsym-test">(.*?)</pre>`)

// M4: in a real browser, the page's figures at random settings of its
// sliders, number boxes, stored types and budget are the model's, exactly.
func TestM4InChromium(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the page is not checked in a browser (M4)")
	busy := make(chan bool, browsers)
	for i, p := range modelled() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			busy <- true
			defer func() { <-busy }()
			m4Check(t, bin, newStepPage(t, p), p.Name, 1000+i, m4Runs)
		})
	}
}

var exactOut = regexp.MustCompile(`(?s)<pre id="memsym-exact">(.*?)</pre>`)

// m4Check opens pg's page with #test=SEED,RUNS and compares each figure
// it shows at each random setting with Page.At's, and the exact figures
// of the fractions its self-test writes with doc.Group's.
func m4Check(t *testing.T, bin string, pg *Page, name string, seed, runs int) (dom string) {
	t.Helper()
	url := writePageOf(t, pg, name)
	start := time.Now()
	dom, console := chromium(t, bin, fmt.Sprintf("%s#test=%d,%d", url, seed, runs))
	elapsed := time.Since(start)
	if len(console) > 0 {
		t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
	}
	match := testOut.FindStringSubmatch(dom)
	if match == nil {
		t.Fatalf("the page wrote no test results; its DOM:\n%.3000s", dom)
	}
	var shown []shownRun
	if err := json.Unmarshal([]byte(html.UnescapeString(match[1])), &shown); err != nil {
		t.Fatal(err)
	}
	if len(shown) != runs {
		t.Fatalf("%d runs, want %d", len(shown), runs)
	}
	for r, run := range shown {
		a := assignment(t, pg, run)
		n, err := pg.At(a)
		if err != nil {
			t.Fatal(err)
		}
		want := expected(pg, n, a)
		approxExpected(t, want, run.Shown)
		compareShown(t, fmt.Sprintf("run %d at %v, %v, budget %s", r+1, a.At, a.Types, run.Budget), run.Shown, want)
	}
	checkExacts(t, dom)
	t.Logf("%d runs in %v", len(shown), elapsed.Round(time.Millisecond))
	return dom
}

// checkExacts compares the exact figures of the fractions the self-test
// writes with memsym's own, doc.Group's: 652 029 722 624/5 bytes read
// 130 405 944 524.8, as memsym memory writes them, and 7/3 stays 7/3.
func checkExacts(t *testing.T, dom string) {
	t.Helper()
	match := exactOut.FindStringSubmatch(dom)
	if match == nil {
		t.Fatalf("the page wrote no exact figures")
	}
	var exacts [][3]string
	if err := json.Unmarshal([]byte(html.UnescapeString(match[1])), &exacts); err != nil {
		t.Fatal(err)
	}
	decimals := 0
	for _, e := range exacts {
		x, err := poly.ParseRat(e[0] + "/" + e[1])
		if err != nil {
			t.Fatal(err)
		}
		if want := doc.Group(x, doc.NarrowNoBreakSpace); e[2] != want {
			t.Errorf("the page writes %s as %q, memsym as %q", x, e[2], want)
		}
		if strings.Contains(e[2], ".") {
			decimals++
		}
	}
	if len(exacts) < 20 || decimals < 10 {
		t.Errorf("%d exact figures, %d of them decimals: the self-test wrote too few", len(exacts), decimals)
	}
}

// assignment reads the controls' values the page reports.
func assignment(t *testing.T, pg *Page, run shownRun) Assignment {
	t.Helper()
	var a Assignment
	for _, s := range run.X {
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("a dimension's box holds %q", s)
		}
		a.At = append(a.At, x)
	}
	for _, s := range run.Types {
		a.Types = append(a.Types, StoredType(s))
	}
	gib, ok := strings.CutSuffix(run.Budget, " GiB")
	if !ok {
		t.Fatalf("budget %q", run.Budget)
	}
	b, err := poly.ParseRat(gib)
	if err != nil {
		t.Fatal(err)
	}
	a.Budget = b.Mul(poly.Int(1 << 30))
	return a
}

// expected returns the figures the page should show, by their data-k.
func expected(pg *Page, n *Numbers, a Assignment) map[string]string {
	want := map[string]string{
		"budget": exactText(a.Budget), "params": exactText(n.Params), "param-elements": exactText(n.ParamElements),
		"inputs": exactText(n.Inputs), "peak": exactText(n.Peak), "outputs": exactText(n.Outputs), "needs": exactText(n.Needs),
		"peak-op": strconv.Itoa(n.PeakOp), "formula": n.Formula, "peak-where": "(no operations)",
	}
	if n.PeakOp > 0 {
		op := pg.m.Op(n.PeakOp)
		want["peak-where"] = op.Label
		if op.Path != "" {
			want["peak-where"] += " in " + op.Path
		}
	}
	for i := range pg.groups {
		want[fmt.Sprintf("group-%d", i)] = exactText(n.GroupBytes[i])
		want[fmt.Sprintf("group-elements-%d", i)] = exactText(n.GroupElements[i])
	}
	for k := range pg.calls.calls {
		want[fmt.Sprintf("sharebytes-%d", k)] = exactText(n.Shares[k])
		want[fmt.Sprintf("sharepct-%d", k)] = Percent(n.Shares[k], n.Peak)
	}
	for _, b := range pg.net.Boxes {
		if b.Call >= 0 {
			want[fmt.Sprintf("share-%d", b.Call)] = Percent(n.Shares[b.Call], n.Peak)
		}
	}
	if n.Needs.Cmp(a.Budget) > 0 {
		want["margin"] = exactText(n.Needs.Sub(a.Budget))
	} else {
		want["margin"] = exactText(a.Budget.Sub(n.Needs))
	}
	for j, v := range pg.m.Vars {
		want["over-"+v] = "none"
		if n.Over[j] > 0 {
			want["over-"+v] = strconv.FormatInt(n.Over[j], 10)
		}
	}
	for i, s := range n.Steps {
		stepExpected(want, fmt.Sprintf("step-%d-", i), pg.steps[i].Model, pg.steps[0].Model, s)
	}
	return want
}

// stepExpected adds the figures the page should show of one step, keyed
// by prefix, from model.Step.Eval; first is the page's first step, whose
// states and phases name the rows.
func stepExpected(want map[string]string, prefix string, st, first *model.Step, n StepNumbers) {
	t := n.Terms
	for k, v := range map[string]poly.Rat{"params": t.Params, "states": t.States, "gradient": t.Gradient, "batch": t.Batch, "kept": t.Kept} {
		want[prefix+k] = exactText(v)
	}
	for j := range first.StateParts {
		want[fmt.Sprintf("%spart-%d", prefix, j)] = "–"
		if j < len(t.StateParts) {
			want[fmt.Sprintf("%spart-%d", prefix, j)] = exactText(t.StateParts[j].Bytes)
		}
	}
	for _, ph := range first.Phases {
		key := prefix + "phase-" + ph.Phase.String()
		want[key], want[key+"-op"], want[key+"-where"] = "–", "–", ""
		for _, p := range t.Phases {
			if p.Phase == ph.Phase {
				want[key], want[key+"-op"], want[key+"-where"] = exactText(p.Bytes), strconv.Itoa(p.Op), StepLabel(st, p.ModelOp)
			}
		}
	}
	pk := t.Peak
	want[prefix+"peak"], want[prefix+"peak-phase"], want[prefix+"peak-op"], want[prefix+"peak-where"] = exactText(pk.Bytes), pk.Phase.String(), strconv.Itoa(pk.Op), StepLabel(st, pk.ModelOp)
	for k, v := range map[string]poly.Rat{"params": pk.Terms.Params, "states": pk.Terms.States, "batch": pk.Terms.Batch, "gradient": pk.Terms.Gradient, "kept": pk.Terms.Kept, "own": pk.Terms.Own} {
		want[prefix+"peak-"+k] = exactText(v)
	}
	want[prefix+"fit"] = "over the budget"
	if n.Fits {
		want[prefix+"fit"] = "within the budget"
	}
	want[prefix+"margin"] = exactText(n.Margin)
}

// exactText writes x as the page's exact figures do, their digit groups
// left out as the self-test reads them: memsym's own doc.Group, an exact
// decimal where x has one ("130405944524.8"), else a fraction ("7/3").
func exactText(x poly.Rat) string { return doc.Group(x, "") }

// approxExpected adds to want, for each figure the page shows in units
// beside an exact one (KEY-approx beside KEY), what memsym's text writes
// for the exact figure the model gives: doc.IEC.Approx after "≈ ", or
// after "= " where it is exact; "" where that is none or the exact figure is
// a dash. (The page once rounded half
// up to two decimals: 3 200 bytes read "≈ 3.13 KiB" there, "3.12 KiB" in
// the chapter.)
func approxExpected(t *testing.T, want, shown map[string]string) {
	t.Helper()
	for k := range shown {
		base, ok := strings.CutSuffix(k, "-approx")
		if !ok {
			continue
		}
		exact, ok := want[base]
		if !ok {
			continue // compareShown says the test does not check it
		}
		want[k] = ""
		if exact == "–" {
			continue
		}
		x, err := poly.ParseRat(exact)
		if err != nil {
			t.Fatalf("%s: the model's %q is no number", base, exact)
		}
		if a := doc.IEC.Approx(x); a != "" {
			want[k] = "≈ " + a
			if back, err := doc.ParseSize(strings.ReplaceAll(a, " ", "")); err == nil && back.Equal(x) {
				want[k] = "= " + a
			}
		}
	}
}

func compareShown(t *testing.T, where string, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: the page shows no %s (want %s)", where, k, w)
		case g != w:
			t.Errorf("%s: the page shows %s = %q, the model %q", where, k, g, w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: the page shows %s = %q, which the test does not check", where, k, g)
		}
	}
}

// The acceptance programs' pages, the course GPT at the course's
// constants among them, open without a word on the console; and the
// page of 10⁴ operations loads in reasonable time.
func TestOpensWithoutConsoleErrors(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the pages are not opened in a browser")
	busy := make(chan bool, browsers)
	for _, c := range []struct {
		name   string
		consts map[string]int64
	}{
		{"gpt-course", nil},
		{"gpt-course", map[string]int64{"D": 384, "H": 6, "L": 6}},
		{"llama2-7b-block", nil},
		{"synthetic", map[string]int64{"N": 10000}},
	} {
		t.Run(fmt.Sprintf("%s%v", c.name, c.consts), func(t *testing.T) {
			t.Parallel()
			busy <- true
			defer func() { <-busy }()
			m, _ := buildModelAt(t, c.name, c.consts)
			url := writePage(t, m, c.name)
			start := time.Now()
			dom, console := chromium(t, bin, url)
			t.Logf("loaded in %v", time.Since(start).Round(time.Millisecond))
			if len(console) > 0 {
				t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
			}
			if strings.Contains(dom, `class="err"`) {
				t.Errorf("the page shows an error")
			}
			if !strings.Contains(dom, `data-k="peak"`) || !strings.Contains(dom, "<svg") {
				t.Errorf("the page drew nothing:\n%.2000s", dom)
			}
		})
	}
}

// TestUncheckedShown: in a browser, the page of a model checked at no
// point off its grid says UNCHECKED under its title; the page of a checked
// one does not.
func TestUncheckedShown(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the pages are not opened in a browser")
	checked, src := buildModelAt(t, "gpt-course", nil)
	recs, err := src.Recordings(context.Background(), source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	im, err := interp.Build(recs.Grid, nil)
	if err != nil {
		t.Fatal(err)
	}
	unchecked := model.FromInterp(im, src.Name())
	const said = `<p class="unchecked">UNCHECKED: no point off the grid was recorded to check the polynomials (give --check)</p>`
	for _, c := range []struct {
		m    *model.Model
		want bool
	}{{unchecked, true}, {checked, false}} {
		dom, console := chromium(t, bin, writePage(t, c.m, "gpt-course"))
		if len(console) > 0 {
			t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
		}
		if got := strings.Contains(dom, said); got != c.want {
			t.Errorf("checked at %d points: the page says UNCHECKED: %v, want %v", len(c.m.CheckPoints()), got, c.want)
		}
	}
}

// TestNegativeShown: in a browser, the page of a model some of whose
// buffers' bytes are negative somewhere in its domain (strided-conv at
// stride 1: 64·B·N − 128·B below N = 2) says where, and that the figures
// there are not the program's; a page without one says nothing of it.
func TestNegativeShown(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the pages are not opened in a browser")
	conv, _ := buildModelAt(t, "strided-conv", map[string]int64{"S": 1})
	gpt, _ := buildModelAt(t, "gpt-course", nil)
	const said = `has bytes 64 · B · N − 128 · B, which is −64 at B = 1, N = 1: where a buffer's bytes are negative, the polynomials are not the program's, nor are this page's figures there</p>`
	for _, c := range []struct {
		name string
		m    *model.Model
		want bool
	}{{"strided-conv", conv, true}, {"gpt-course", gpt, false}} {
		dom, console := chromium(t, bin, writePage(t, c.m, c.name))
		if len(console) > 0 {
			t.Errorf("%s: the console says:\n%s", c.name, strings.Join(console, "\n"))
		}
		if got := strings.Contains(dom, said); got != c.want {
			t.Errorf("%s: the page says where bytes are negative: %v, want %v", c.name, got, c.want)
		}
	}
}

// probe sets a dimension's slider to its ends and its number box to a
// value past its range and to the range's last, through their input
// events as a reader would, and writes what the controls then hold as
// JSON into a pre element of id memsym-probe. It runs after the page's
// script.
const probe = `<script>
(function () {
  const name = %q;
  const slider = document.querySelector('input[data-dim="' + name + '"]');
  const box = document.querySelector('input[data-dimbox="' + name + '"]');
  const fire = function (e) { e.dispatchEvent(new Event('input', { bubbles: true })); };
  const out = { boxMin: box.min, boxMax: box.max };
  slider.value = slider.max; fire(slider); out.top = box.value;
  slider.value = slider.min; fire(slider); out.bottom = box.value;
  box.value = '%d'; fire(box); out.pastBad = box.classList.contains('bad');
  box.value = '%d'; fire(box); out.lastBad = box.classList.contains('bad');
  out.hint = document.querySelector('[data-hint="' + name + '"]').textContent.split('\u202f').join(' ');
  const pre = document.createElement('pre');
  pre.id = 'memsym-probe';
  pre.textContent = JSON.stringify(out);
  document.body.append(pre);
})();
</script>
`

var probeOut = regexp.MustCompile(`(?s)<pre id="memsym-probe">(.*?)</pre>`)

// In a browser, a bundled program's slider and number box stop where the
// program stops running, a value past that is refused, and the hint
// beside them says why, in the program's words.
func TestSlidersStopWhereTheProgramDoes(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the pages are not opened in a browser")
	for _, c := range []struct {
		program     string
		consts      map[string]int64
		dim         string
		min, max    string
		past, last  int64
		top, bottom string
		hint        string
	}{
		{"bert-encoder", nil, "T", "1", "512", 513, 512, "512", "1",
			"1 to 512; recorded at 64, 128, 192; bert-encoder does not run at T = 513: T = 513 is more than P = 512"},
		{"strided-conv", map[string]int64{"S": 1}, "N", "3", "32768", 2, 3, "32768", "3",
			"3 to 32 768; recorded at 8, 10, 12; strided-conv does not run at N = 2: K = 3 is more than N = 2"},
	} {
		t.Run(c.program, func(t *testing.T) {
			m, src := buildModelAt(t, c.program, c.consts)
			pg, err := New(m, Options{Runs: runsOf(src)})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := pg.Render(&b); err != nil {
				t.Fatal(err)
			}
			page := strings.Replace(b.String(), "</body>", fmt.Sprintf(probe, c.dim, c.past, c.last)+"</body>", 1)
			path := filepath.Join(t.TempDir(), c.program+".html")
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			dom, console := chromium(t, bin, "file://"+path)
			if len(console) > 0 {
				t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
			}
			match := probeOut.FindStringSubmatch(dom)
			if match == nil {
				t.Fatalf("the probe wrote nothing; the DOM:\n%.3000s", dom)
			}
			var got struct {
				BoxMin, BoxMax, Top, Bottom string
				PastBad, LastBad            bool
				Hint                        string
			}
			if err := json.Unmarshal([]byte(html.UnescapeString(match[1])), &got); err != nil {
				t.Fatal(err)
			}
			if got.BoxMin != c.min || got.BoxMax != c.max {
				t.Errorf("%s's box runs from %s to %s, want %s to %s", c.dim, got.BoxMin, got.BoxMax, c.min, c.max)
			}
			if got.Top != c.top || got.Bottom != c.bottom {
				t.Errorf("%s's slider at its ends sets %s and %s, want %s and %s", c.dim, got.Bottom, got.Top, c.bottom, c.top)
			}
			if !got.PastBad || got.LastBad {
				t.Errorf("%s = %d refused: %v, %s = %d refused: %v; want only the first", c.dim, c.past, got.PastBad, c.dim, c.last, got.LastBad)
			}
			if got.Hint != c.hint {
				t.Errorf("the hint beside %s says\n%q\nwant\n%q", c.dim, got.Hint, c.hint)
			}
		})
	}
}

// A model without dimensions (a recording whose header has "dims": {})
// draws a page without sliders, its figures the one point's, as memsym
// symbolic and memory give them; none of its controls throws.
func TestNoDimensionsInChromium(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the page is not checked in a browser")
	pg, err := New(modelOfRecordings(t, noDims), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dom := m4Check(t, bin, pg, "no-dims", 7, 8)
	if strings.Contains(dom, `class="err"`) {
		t.Errorf("the page shows an error")
	}
	if strings.Contains(dom, `type="range"`) {
		t.Errorf("the page of a model without dimensions has a slider")
	}
	if !strings.Contains(dom, "The program has no dimensions") {
		t.Errorf("the page does not say the program has no dimensions:\n%.3000s", dom)
	}
}

// driver sets the first group's stored type and the budget, in GiB, to
// each of settings in turn, through their input events, and writes what
// the page then shows as JSON into a pre element of id memsym-drive. It
// runs after the page's script; each setting's update runs before the
// next is read.
const driver = `<script>
(function () {
  const settings = %s;
  const fire = function (e) { e.dispatchEvent(new Event('input', { bubbles: true })); };
  const text = function (k) { return document.querySelector('[data-k="' + k + '"]').textContent.split('\u202f').join(''); };
  const group = document.querySelector('select[data-group="0"]');
  const budget = document.querySelector('select[aria-label="budget"]');
  const free = document.querySelector('input[aria-label="budget in GiB"]');
  const out = [];
  let i = 0;
  function next() {
    if (i > 0) out.push({ over: text('over-W'), needs: text('needs'), margin: text('margin'), budget: text('budget') });
    if (i === settings.length) {
      const pre = document.createElement('pre');
      pre.id = 'memsym-drive';
      pre.textContent = JSON.stringify(out);
      document.body.append(pre);
      return;
    }
    group.value = settings[i][0]; fire(group);
    budget.value = 'free'; fire(budget);
    free.value = settings[i][1]; fire(free);
    i++;
    setTimeout(next, 0);
  }
  next();
})();
</script>
`

var driveOut = regexp.MustCompile(`(?s)<pre id="memsym-drive">(.*?)</pre>`)

// Where the needs cross the budget is found exactly and at once however
// far the slider runs: on a page whose W runs to 2^53 − 1, with int4
// parameters and one candidate flat along W (its bytes 1 004, the
// other's 4·W + 4), a budget of exactly the needs at W = 1 is crossed
// from W = 251, and the page says so at once, where it once tried every
// value up to 2^53 − 1. Each crossing is memsym fit's, on the model.
func TestCrossingOverAHugeRange(t *testing.T) {
	bin := tooltest.Need(t, "chromium", "the page is not checked in a browser")
	m := modelOfRecordings(t, flatRecording(1), flatRecording(2), flatRecording(3))
	const top = 1<<53 - 1
	pg, err := New(m, Options{Max: map[string]int64{"W": top}})
	if err != nil {
		t.Fatal(err)
	}
	at := []int64{1}
	terms, err := m.Eval(m.Point(at))
	if err != nil {
		t.Fatal(err)
	}
	// needs gives the page's needs at W = 1 with the group stored as st:
	// the parameters do not depend on W, so the model's needs with the
	// recorded parameters swapped for the re-typed ones, at every W.
	recordedParams, _, _, _ := pg.params([]StoredType{Recorded}, at)
	retyped := func(st StoredType) poly.Rat {
		p, _, _, _ := pg.params([]StoredType{st}, at)
		return p.Sub(recordedParams)
	}
	gib := poly.Int(1 << 30)
	exactly := func(st StoredType) string { return doc.Decimal(terms.Needs.Add(retyped(st)).Quo(gib)) }
	settings := [][2]string{
		{"int4", exactly(Int4)}, // 1 044 bytes: the report's page that hung
		{"int4", exactly(Int4) + "000000000000000000000001"},
		{"int4", "1"},
		{"int4", "8589934592"}, // 2^63 bytes: crossed past 2^53 − 1
		{"recorded", exactly(Recorded)},
		{"bf16", "0.5"},
		{"int4", "0.0000001"},
	}
	js, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := pg.Render(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "flat.html")
	if err := os.WriteFile(path, []byte(strings.Replace(b.String(), "</body>", fmt.Sprintf(driver, js)+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	dom, console := chromiumWithin(t, bin, "file://"+path, 90*time.Second)
	t.Logf("%d settings in %v", len(settings), time.Since(start).Round(time.Millisecond))
	if len(console) > 0 {
		t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
	}
	match := driveOut.FindStringSubmatch(dom)
	if match == nil {
		t.Fatalf("the driver wrote nothing; the DOM:\n%.3000s", dom)
	}
	var got []struct{ Over, Needs, Margin, Budget string }
	if err := json.Unmarshal([]byte(html.UnescapeString(match[1])), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(settings) {
		t.Fatalf("%d settings shown, want %d", len(got), len(settings))
	}
	for i, s := range settings {
		st := StoredType(s[0])
		budget, err := poly.ParseRat(s[1])
		if err != nil {
			t.Fatal(err)
		}
		budget = budget.Mul(gib)
		needs := terms.Needs.Add(retyped(st))
		f, err := m.Fit("W", map[string]int64{}, budget.Sub(retyped(st)))
		if err != nil {
			t.Fatal(err)
		}
		over := "none"
		if v := firstOver(f); v > 0 && v <= top {
			over = strconv.FormatInt(v, 10)
		}
		margin := budget.Sub(needs)
		if margin.Sign() < 0 {
			margin = margin.Neg()
		}
		where := fmt.Sprintf("%s, budget %s GiB", st, s[1])
		for _, c := range [][3]string{{"crossing", got[i].Over, over}, {"needs", got[i].Needs, exactText(needs)},
			{"margin", got[i].Margin, exactText(margin)}, {"budget", got[i].Budget, exactText(budget)}} {
			if c[1] != c[2] {
				t.Errorf("%s: the page shows the %s %s, memsym %s", where, c[0], c[1], c[2])
			}
		}
	}
	if got[0].Over != "251" || got[1].Over != "251" || got[3].Over != "none" {
		t.Errorf("crossings %+v: want W = 251 for the budgets at the needs, none for 2^63 bytes", got)
	}
	// Page.At, trying every value, agrees where it can: the crossing is
	// near.
	budget, _ := poly.ParseRat(settings[0][1])
	n, err := pg.At(Assignment{At: at, Types: []StoredType{Int4}, Budget: budget.Mul(gib)})
	if err != nil {
		t.Fatal(err)
	}
	if n.Over[0] != 251 {
		t.Errorf("Page.At says the needs cross the budget from W = %d, want 251", n.Over[0])
	}
}

// noDims is a recording without dimensions: a parameter given in bytes,
// one of 1 001 f32 elements (int4 stores it in 500.5 bytes and 32
// scales), and one operation.
const noDims = `{"memsym": 1, "entry": "Z", "dims": {}}
{"buffer": 1, "bytes": 1048064, "role": "param", "name": "w", "group": "g"}
{"buffer": 2, "dtype": "f32", "shape": [1001], "role": "param", "name": "v", "group": "h"}
{"buffer": 3, "dtype": "f32", "shape": [3], "name": "t"}
{"op": "Z/%1", "reads": [1, 2], "writes": [3]}
{"result": [3]}
`

// flatRecording is a program in W at one value: 64 f32 parameters, and
// two candidates for the peak, 1 004 bytes whatever W and 4·W + 4.
func flatRecording(w int) string {
	return fmt.Sprintf(`{"memsym": 1, "entry": "Flat", "dims": {"W": %d}}
{"buffer": 1, "dtype": "f32", "shape": [64], "role": "param", "name": "p", "group": "g"}
{"buffer": 2, "dtype": "f32", "shape": [250], "name": "t1"}
{"op": "a", "reads": [1], "writes": [2]}
{"buffer": 3, "dtype": "f32", "shape": [1], "name": "t3"}
{"op": "c", "reads": [2], "writes": [3]}
{"buffer": 4, "dtype": "f32", "shape": [%d], "name": "t2"}
{"op": "b", "reads": [3], "writes": [4]}
{"result": [4]}
`, w, w)
}

// modelOfRecordings builds the model of recordings, the grid, each
// written to a file.
func modelOfRecordings(t *testing.T, recordings ...string) *model.Model {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, r := range recordings {
		path := filepath.Join(dir, fmt.Sprintf("r%d.jsonl", i))
		if err := os.WriteFile(path, []byte(r), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	m, err := model.Build(context.Background(), &source.Files{Grid: paths}, source.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
