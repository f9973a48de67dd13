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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=3600000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
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
			pg := newStepPage(t, p)
			url := writePageOf(t, pg, p.Name)
			start := time.Now()
			dom, console := chromium(t, bin, fmt.Sprintf("%s#test=%d,%d", url, 1000+i, m4Runs))
			elapsed := time.Since(start)
			if len(console) > 0 {
				t.Errorf("the console says:\n%s", strings.Join(console, "\n"))
			}
			match := testOut.FindStringSubmatch(dom)
			if match == nil {
				t.Fatalf("the page wrote no test results; its DOM:\n%.3000s", dom)
			}
			var runs []shownRun
			if err := json.Unmarshal([]byte(html.UnescapeString(match[1])), &runs); err != nil {
				t.Fatal(err)
			}
			if len(runs) != m4Runs {
				t.Fatalf("%d runs, want %d", len(runs), m4Runs)
			}
			for r, run := range runs {
				a := assignment(t, pg, run)
				n, err := pg.At(a)
				if err != nil {
					t.Fatal(err)
				}
				want := expected(pg, n, a)
				approxExpected(t, want, run.Shown)
				compareShown(t, fmt.Sprintf("run %d at %v, %v, budget %s", r+1, a.At, a.Types, run.Budget), run.Shown, want)
			}
			t.Logf("%d runs in %v", len(runs), elapsed.Round(time.Millisecond))
		})
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
		"budget": a.Budget.String(), "params": n.Params.String(), "param-elements": n.ParamElements.String(),
		"inputs": n.Inputs.String(), "peak": n.Peak.String(), "outputs": n.Outputs.String(), "needs": n.Needs.String(),
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
		want[fmt.Sprintf("group-%d", i)] = n.GroupBytes[i].String()
		want[fmt.Sprintf("group-elements-%d", i)] = n.GroupElements[i].String()
	}
	for k := range pg.calls.calls {
		want[fmt.Sprintf("sharebytes-%d", k)] = n.Shares[k].String()
		want[fmt.Sprintf("sharepct-%d", k)] = Percent(n.Shares[k], n.Peak)
	}
	for _, b := range pg.net.Boxes {
		if b.Call >= 0 {
			want[fmt.Sprintf("share-%d", b.Call)] = Percent(n.Shares[b.Call], n.Peak)
		}
	}
	if n.Needs.Cmp(a.Budget) > 0 {
		want["margin"] = n.Needs.Sub(a.Budget).String()
	} else {
		want["margin"] = a.Budget.Sub(n.Needs).String()
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
		want[prefix+k] = v.String()
	}
	for j := range first.StateParts {
		want[fmt.Sprintf("%spart-%d", prefix, j)] = "–"
		if j < len(t.StateParts) {
			want[fmt.Sprintf("%spart-%d", prefix, j)] = t.StateParts[j].Bytes.String()
		}
	}
	for _, ph := range first.Phases {
		key := prefix + "phase-" + ph.Phase.String()
		want[key], want[key+"-op"], want[key+"-where"] = "–", "–", ""
		for _, p := range t.Phases {
			if p.Phase == ph.Phase {
				want[key], want[key+"-op"], want[key+"-where"] = p.Bytes.String(), strconv.Itoa(p.Op), StepLabel(st, p.ModelOp)
			}
		}
	}
	pk := t.Peak
	want[prefix+"peak"], want[prefix+"peak-phase"], want[prefix+"peak-op"], want[prefix+"peak-where"] = pk.Bytes.String(), pk.Phase.String(), strconv.Itoa(pk.Op), StepLabel(st, pk.ModelOp)
	for k, v := range map[string]poly.Rat{"params": pk.Terms.Params, "states": pk.Terms.States, "batch": pk.Terms.Batch, "gradient": pk.Terms.Gradient, "kept": pk.Terms.Kept, "own": pk.Terms.Own} {
		want[prefix+"peak-"+k] = v.String()
	}
	want[prefix+"fit"] = "over the budget"
	if n.Fits {
		want[prefix+"fit"] = "within the budget"
	}
	want[prefix+"margin"] = n.Margin.String()
}

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
