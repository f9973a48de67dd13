package explain_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/explain"
)

// The slips a careful author does not make, each a pattern of the plain
// text of a chapter.
var slips = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a plural after one", regexp.MustCompile(`(?i)\b(1|one) (distinct )?(operations|launches|buffers|values|points|recordings|candidates|pairs|elements|polynomials|assignments|files|bytes|calls|sets|crossovers)\b`)},
	{"a singular after several", regexp.MustCompile(`(?i)\b([02-9]|[1-9][0-9,\x{2009} ]*[0-9]|no|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|all|both) (distinct )?(operation|launch|buffer|value|point|recording|candidate|pair|element|polynomial|assignment|file|call|set|crossover)\b`)},
	{"a plural subject with a singular verb", regexp.MustCompile(`\b(buffers|sets|candidates|recordings|points|shares|polynomials|they|both|all) (is|holds|agrees|disagrees|contradicts|shows|takes|was|has)\b`)},
	{"a singular subject with a plural verb", regexp.MustCompile(`\b(buffer|set|candidate|recording|point|share|polynomial|it) (are|hold|agree|disagree|contradict|show|take|were|have)\b`)},
	{"a plural's possessive with 's", regexp.MustCompile(`\b\w*[a-rt-z]s's\b`)},
	{"an empty phrase", regexp.MustCompile(`\b(in|of|at|for|every) [,.;:)]|\s{2,}\S|\(\)|≥ 1 ≥`)},
}

// numbered reports whether a number follows position end of text: a noun
// before its own number ("operation 19") is no count.
func numbered(text string, end int) bool {
	return regexp.MustCompile(`^ \d`).MatchString(text[end:])
}

// wordTwice returns a word said twice in a row ("the the"), or "".
func wordTwice(text string) string {
	words := strings.Fields(text)
	for i := 1; i < len(words); i++ {
		if w := strings.ToLower(words[i]); w == strings.ToLower(words[i-1]) && regexp.MustCompile(`^[a-z]+$`).MatchString(w) {
			return words[i-1] + " " + words[i]
		}
	}
	return ""
}

// prose is the running text of a chapter, each piece a reader reads as one:
// every paragraph, list item and caption; cells are its tables' cells,
// each table's by column.
func prose(d *doc.Document) (text []string, cells [][][]string) {
	add := func(ins []doc.Inline) {
		if s := doc.PlainText(ins, " "); s != "" {
			text = append(text, s)
		}
	}
	d.Walk(func(_ *doc.Section, b doc.Block) {
		switch b := b.(type) {
		case *doc.Paragraph:
			add(b.Inlines)
		case *doc.List:
			for _, it := range b.Items {
				add(it)
			}
		case *doc.Table:
			add(b.Caption)
			columns := make([][]string, len(b.Header))
			for _, r := range append(append([][]doc.Cell{b.Header}, b.Rows...), b.Foot...) {
				for i, c := range r {
					if i < len(columns) {
						// Numbers ungrouped, a number one word, as
						// sameAsAbove counts a cell's words.
						columns[i] = append(columns[i], doc.PlainText(c, ""))
					}
				}
			}
			cells = append(cells, columns)
		case *doc.Figure:
			add(b.Caption)
		}
	})
	return text, cells
}

// sentences splits text into sentences.
func sentences(text string) []string {
	var out []string
	for _, s := range regexp.MustCompile(`[.;:!?](\s+|$)`).Split(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// proseSlips returns the slips of d: the patterns above, a word said twice
// in a row, any sentence of six words or more said twice, and any cell of
// six words or more said twice in a table's column.
func proseSlips(d *doc.Document) []string {
	var found []string
	text, tables := prose(d)
	var all []string
	all = append(all, text...)
	for _, columns := range tables {
		for _, col := range columns {
			all = append(all, col...)
			seen := map[string]bool{}
			for _, c := range col {
				if len(strings.Fields(c)) >= 6 && seen[c] {
					found = append(found, "a cell said twice in one column: "+c)
				}
				seen[c] = true
			}
		}
	}
	for _, u := range all {
		for _, s := range slips {
			for _, at := range s.re.FindAllStringIndex(u, -1) {
				if s.what == "a singular after several" && numbered(u, at[1]) {
					continue
				}
				found = append(found, s.what+": "+u[at[0]:at[1]]+" (in "+u+")")
			}
		}
		if w := wordTwice(u); w != "" {
			found = append(found, "a word twice: "+w+" (in "+u+")")
		}
	}
	seen := map[string]int{}
	for _, u := range text {
		for _, s := range sentences(u) {
			if len(strings.Fields(s)) >= 6 {
				seen[s]++
				if seen[s] == 2 {
					found = append(found, "a sentence said twice: "+s)
				}
			}
		}
	}
	return found
}

// Every bundled program's chapter, and the chapters of what is rarer (an
// undecided pair, a failed check, a contradicted crossover, no
// dimensions), must be free of the slips.
func TestProseSlips(t *testing.T) {
	check := func(name string, in *explain.Input) {
		t.Helper()
		for _, s := range proseSlips(explain.Chapter(in)) {
			t.Errorf("%s: %s", name, s)
		}
	}
	for _, name := range bundled() {
		check(name, input(t, name))
	}
	in := input(t, "gpt-course")
	in.Symbolic.Undecided = [][2]int{{0, 2}}
	in.Verified[0].Err = "buffer 7 has 8 bytes, the polynomial gives 16"
	in.Symbolic.Cross.Confirmed[0].PeakOp = 3
	check("gpt-course with an undecided pair, a failed check and a contradiction", in)
	in = input(t, "mlp-train-step")
	in.Verified = in.Verified[:1]
	check("mlp-train-step with one check", in)
}

// The slips are found where they are: the test above can fail.
func TestProseSlipsFound(t *testing.T) {
	for _, c := range []struct {
		text string
		want string
	}{
		{"It runs 1 operations.", "a plural after one"},
		{"Of the three buffer live there.", "a singular after several"},
		{"the attention's probabilities holds the peak.", ""},
		{"Two buffers is live there.", "a plural subject with a singular verb"},
		{"The buffer are live.", "a singular subject with a plural verb"},
		{"It takes 1 values.", "a plural after one"},
		{"the experts's gate", "a plural's possessive with 's"},
		{"the experts' gate", ""},
		{"It is the the peak.", "a word twice"},
		{"Check M3 compares every buffer with the polynomials at a point. Check M3 compares every buffer with the polynomials at a point.", "a sentence said twice"},
		{"As polynomials in , the peak.", "an empty phrase"},
	} {
		d := &doc.Document{Sections: []doc.Section{{Blocks: []doc.Block{&doc.Paragraph{Inlines: []doc.Inline{doc.Text(c.text)}}}}}}
		got := strings.Join(proseSlips(d), "\n")
		if c.want == "" {
			continue
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%q: found %q, want %s", c.text, got, c.want)
		}
	}
}

// TestCandidateNamedWhereItHolds: the encoder-decoder's candidate at
// operation 75 holds the peak only from T = 936 on, past the grid's T = 48,
// where its largest buffers are the decoder's masked attention scores; at
// the grid's largest values they are smaller than the encoder's normed
// input, which a name judged there gave it.
func TestCandidateNamedWhereItHolds(t *testing.T) {
	in := input(t, "encdec-cross")
	sym := in.Symbolic
	var holder *explain.SegmentRow
	for i, seg := range sym.Cross.Segments {
		if sym.Candidates[seg.Holder].Op == 75 {
			holder = &sym.Cross.Segments[i]
		}
	}
	if holder == nil || holder.To != 0 || holder.From <= sym.Grid[len(sym.Grid)-1][2] {
		t.Fatalf("the candidate at operation 75 holds no stretch without end past the grid: %+v", sym.Cross.Segments)
	}
	c := sym.Candidates[holder.Holder]
	if c.Largest == nil || !slices.Contains(c.Largest.Names, "masked scores") {
		t.Errorf("the candidate at operation 75 is named by %+v, want the masked scores", c.Largest)
	}
}

// TestCandidateNamedAtScale: a candidate that holds the peak at every T ≥
// 1 is named by what is largest at the grid's T, not at T = 1, where a
// buffer that does not grow with T (the scan's last state) is.
func TestCandidateNamedAtScale(t *testing.T) {
	c := input(t, "ssm-scan").Symbolic.Candidates[0]
	if c.Largest == nil || !slices.Contains(c.Largest.Names, "states") {
		t.Errorf("the scan's candidate is named by %+v, want its states", c.Largest)
	}
}

// TestGrowingParameters: where the parameters' bytes grow with a
// dimension, the chapter names the parameters that make them grow, the
// first few of them, and counts the rest; where they do not, it says
// nothing of it.
func TestGrowingParameters(t *testing.T) {
	tests := []struct {
		program string
		want    string // "" for no such sentence
	}{
		{"mlp-width", "The parameters grow with W: seven of them have W among their axes, weight in hidden[0] (I · W reals), bias in hidden[0] (W reals), weight in hidden[1] (W² reals) and four more."},
		{"llama2-7b-block", "The parameters grow with T: one of them, table in rope (T · D reals), has T among its axes."},
		{"conv-same", ""},
		// L counts blocks: no parameter has it among its axes.
		{"gpt-depth", "The parameters grow with T: one of them, the position embedding's weight (T · D reals), has T among its axes. They grow with L too: each of the L blocks holds its own."},
		{"layers-as-dim", "The parameters grow with L: each of the L blocks holds its own."},
	}
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			text, _ := prose(explain.Chapter(input(t, tt.program)))
			var got string
			for _, p := range text { // the sentence is a paragraph of its own
				if strings.HasPrefix(p, "The parameters grow with") {
					got = p
				}
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
