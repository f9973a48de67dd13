package programs_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"memsym/programs"
)

// TestListing checks what `memsym programs` shows of each program: unique
// names that Lookup finds, one-line summaries, and dimensions whose grid
// ascends and whose check point is off it.
func TestListing(t *testing.T) {
	all := programs.All()
	if len(all) < 14 {
		t.Errorf("%d programs, want at least 14", len(all))
	}
	seen := map[string]bool{}
	refused := 0
	for _, p := range all {
		if seen[p.Name] {
			t.Errorf("%s is listed twice", p.Name)
		}
		seen[p.Name] = true
		if q, err := programs.Lookup(p.Name); err != nil || q != p {
			t.Errorf("Lookup(%q) = %v, %v", p.Name, q, err)
		}
		if p.Summary == "" || strings.Contains(p.Summary, "\n") || p.Entry == "" || p.Realization == "" {
			t.Errorf("%s: summary %q, entry %q, realization %q", p.Name, p.Summary, p.Entry, p.Realization)
		}
		if p.Refusal != "" {
			refused++
		}
		if p.Chapter != nil {
			if _, err := p.Record(nil, p.Chapter.Consts); err != nil {
				t.Errorf("%s: the chapter's constants: %v", p.Name, err)
			}
		}
		for _, d := range p.Dims {
			g := d.Grid
			if d.Default < 1 || g[0] < 1 || g[0] >= g[1] || g[1] >= g[2] || d.Check < 1 || d.Check == g[0] || d.Check == g[1] || d.Check == g[2] || d.Doc == "" {
				t.Errorf("%s: dimension %+v", p.Name, d)
			}
		}
		for _, c := range p.Consts {
			if c.Default < 1 || c.Doc == "" {
				t.Errorf("%s: constant %+v", p.Name, c)
			}
		}
	}
	if refused != 1 {
		t.Errorf("%d refused programs, want 1 (strided-conv)", refused)
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := programs.Lookup("gpt")
	if err == nil || !strings.HasPrefix(err.Error(), `no bundled program "gpt": expected one of gpt-course, llama2-7b-block, `) {
		t.Errorf("Lookup(gpt): %v", err)
	}
}

// TestRecordHeader checks that a recording's header gives the program's
// entry, realization, dimensions in order and constants, defaults filled in.
func TestRecordHeader(t *testing.T) {
	rec := recordAt(t, "gpt-course", map[string]int64{"T": 40}, map[string]int64{"L": 3})
	h := rec.Header
	var dims, consts []string
	for _, d := range h.Dims {
		dims = append(dims, d.Name+"="+strconv.FormatInt(d.Value, 10))
	}
	for _, c := range h.Consts {
		consts = append(consts, c.Name+"="+c.Value)
	}
	if h.Entry != "GPT.apply" || h.Realization != "f64" || strings.Join(dims, " ") != "B=2 T=40" || strings.Join(consts, " ") != "D=64 H=2 L=3" {
		t.Errorf("header %+v", h)
	}
	if got := rec.Ops.Len(); got != 3+3*20+2 {
		t.Errorf("%d operations with L = 3, want 65", got)
	}
}

func TestRecordErrors(t *testing.T) {
	for _, c := range []struct {
		program      string
		dims, consts map[string]int64
		want         string
	}{
		{"gpt-course", map[string]int64{"X": 1}, nil, `program gpt-course has no dimension "X": its dimensions are B, T`},
		{"gpt-course", nil, map[string]int64{"B": 1}, `program gpt-course has no constant "B": its constants are D, H, L`},
		{"gpt-course", map[string]int64{"B": 0}, nil, "program gpt-course: dimension B = 0: expected an integer from 1 to 1099511627776"},
		{"gpt-course", map[string]int64{"T": -3}, nil, "program gpt-course: dimension T = -3: expected an integer from 1 to 1099511627776"},
		{"gpt-course", map[string]int64{"T": 1 << 41}, nil, "program gpt-course: dimension T = 2199023255552: expected an integer from 1 to 1099511627776"},
		{"gpt-course", nil, map[string]int64{"D": 1 << 25}, "program gpt-course: constant D = 33554432: expected an integer from 1 to 16777216"},
		{"gpt-course", nil, map[string]int64{"D": 63}, "program gpt-course: D = 63 is not divisible by H = 2"},
		{"gpt-course", nil, map[string]int64{"L": 10001}, "program gpt-course: constant L = 10001: expected an integer from 1 to 10000"},
		// Beyond every constant's bound too, the program's own is the one given.
		{"gpt-course", nil, map[string]int64{"L": 1 << 25}, "program gpt-course: constant L = 33554432: expected an integer from 1 to 10000"},
		{"llama2-7b-block-int4", nil, map[string]int64{"G": 100}, "program llama2-7b-block-int4: D = 4096 is not divisible by G = 100"},
		{"llama2-7b-block-int4", nil, map[string]int64{"F": 11000}, "program llama2-7b-block-int4: F = 11000 is not divisible by G = 128"},
		{"bert-encoder", map[string]int64{"T": 513}, nil, "program bert-encoder: T = 513 is more than P = 512"},
		{"moe-layer", nil, map[string]int64{"K": 9}, "program moe-layer: K = 9 is more than E = 8"},
		{"conv-same", nil, map[string]int64{"K": 4}, `program conv-same: K = 4: "same" padding needs an odd kernel`},
		{"strided-conv", map[string]int64{"N": 2}, nil, "program strided-conv: K = 3 is more than N = 2"},
		{"views-heavy", nil, map[string]int64{"D": 9, "H": 3}, "program views-heavy: D = 9: expected an even width, split in halves"},
		{"synthetic", nil, map[string]int64{"N": 10_000_001}, "program synthetic: constant N = 10000001: expected an integer from 1 to 10000000"},
		{"synthetic", nil, map[string]int64{"N": 20_000_000}, "program synthetic: constant N = 20000000: expected an integer from 1 to 10000000"},
		{"conv-same", nil, map[string]int64{"K": 1025}, "program conv-same: constant K = 1025: expected an integer from 1 to 1024"},
		{"layers-as-dim", map[string]int64{"L": 20000}, nil, "program layers-as-dim: dimension L = 20000: expected an integer from 1 to 10000"},
		{"mlp-width", map[string]int64{"A": 1, "B": 0}, nil, `program mlp-width has no dimension "A": its dimensions are B, W`},
	} {
		p, err := programs.Lookup(c.program)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Record(c.dims, c.consts)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %v %v: %v, want %q", c.program, c.dims, c.consts, err, c.want)
		}
	}
}

// TestRecordDeterministic checks that recording twice gives the same bytes.
func TestRecordDeterministic(t *testing.T) {
	for _, p := range programs.All() {
		var out [2]strings.Builder
		for i := range out {
			rec, err := p.Record(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rec.WriteTo(&out[i]); err != nil {
				t.Fatal(err)
			}
		}
		if out[0].String() != out[1].String() || out[0].Len() == 0 {
			t.Errorf("%s: two recordings differ", p.Name)
		}
	}
}

// TestRecordConcurrently records every program at once, as the symbolic
// model's sources do (run it with -race).
func TestRecordConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for _, p := range programs.All() {
		for range 2 {
			wg.Go(func() {
				if _, err := p.Record(nil, nil); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
}

// TestRefusalWith: strided-conv's refusal holds at strides above 1, the
// default among them, and not at S = 1; a program without a refusal has
// none at any constants.
func TestRefusalWith(t *testing.T) {
	p, _ := programs.Lookup("strided-conv")
	for _, c := range []struct {
		consts  map[string]int64
		refused bool
	}{
		{nil, true},
		{map[string]int64{"S": 2}, true},
		{map[string]int64{"S": 5, "K": 4}, true},
		{map[string]int64{"S": 1}, false},
		{map[string]int64{"S": 1, "K": 5}, false},
	} {
		if got := p.RefusalWith(c.consts); (got != "") != c.refused || c.refused && got != p.Refusal {
			t.Errorf("strided-conv at %v: refusal %q", c.consts, got)
		}
	}
	g, _ := programs.Lookup("gpt-course")
	if got := g.RefusalWith(map[string]int64{"D": 8}); got != "" {
		t.Errorf("gpt-course: refusal %q", got)
	}
}

// TestAllows: bert-encoder runs for T ≤ P and gpt-depth for L ≤ 10000; a
// point past either says why, as recording there does.
func TestAllows(t *testing.T) {
	b, _ := programs.Lookup("bert-encoder")
	if err := b.Allows(map[string]int64{"B": 1, "T": 512}, nil); err != nil {
		t.Errorf("bert-encoder at T = 512: %v", err)
	}
	if err := b.Allows(map[string]int64{"B": 1, "T": 513}, nil); err == nil || !strings.Contains(err.Error(), "T = 513 is more than P = 512") {
		t.Errorf("bert-encoder at T = 513: %v", err)
	}
	if err := b.Allows(map[string]int64{"B": 1, "T": 900}, map[string]int64{"P": 1024}); err != nil {
		t.Errorf("bert-encoder at T = 900, P = 1024: %v", err)
	}
	g, _ := programs.Lookup("gpt-depth")
	if err := g.Allows(map[string]int64{"L": 10001}, nil); err == nil {
		t.Errorf("gpt-depth at L = 10001: runs")
	}
}

// TestCheckConstsAmongThemselves: constants that break a constraint among
// constants alone (D divisible by H) are refused without a point; one tied
// to a dimension (bert-encoder's T ≤ P) needs a point, and is not.
func TestCheckConstsAmongThemselves(t *testing.T) {
	gpt, _ := programs.Lookup("gpt-course")
	if err := gpt.CheckConsts(map[string]int64{"D": 100, "H": 3}); err == nil || err.Error() != "program gpt-course: D = 100 is not divisible by H = 3" {
		t.Errorf("gpt-course at D = 100, H = 3: %v", err)
	}
	if err := gpt.CheckConsts(map[string]int64{"D": 96, "H": 3}); err != nil {
		t.Errorf("gpt-course at D = 96, H = 3: %v", err)
	}
	bert, _ := programs.Lookup("bert-encoder")
	if err := bert.CheckConsts(map[string]int64{"P": 3}); err != nil {
		t.Errorf("bert-encoder at P = 3, a limit on T: %v", err)
	}
}

// TestCheckConstsOwnWords: the constraints among constants alone that say
// themselves in their own words (an odd kernel, an even width) are refused
// when the constants are given, as D divisible by H is.
func TestCheckConstsOwnWords(t *testing.T) {
	for _, c := range []struct {
		program string
		consts  map[string]int64
		want    string
	}{
		{"conv-same", map[string]int64{"K": 4}, `program conv-same: K = 4: "same" padding needs an odd kernel`},
		{"views-heavy", map[string]int64{"D": 9, "H": 3}, "program views-heavy: D = 9: expected an even width, split in halves"},
	} {
		p, err := programs.Lookup(c.program)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.CheckConsts(c.consts); err == nil || err.Error() != c.want {
			t.Errorf("%s at %v: %v, want %s", c.program, c.consts, err, c.want)
		}
	}
}
