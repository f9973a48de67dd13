package record

import (
	"os"
	"strings"
	"testing"
)

// fenced returns the contents of the fenced blocks of the given language in
// a Markdown file.
func fenced(t *testing.T, file, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur *strings.Builder
	for line := range strings.Lines(string(data)) {
		switch {
		case cur == nil && strings.TrimSpace(line) == "```"+lang:
			cur = new(strings.Builder)
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return blocks
}

const formatDoc = "../docs/recording-format.md"

// TestDocExample reads the format's complete example: it must read, and it
// must be testdata/mlp.jsonl, whose counts count's TestAtMLP checks against
// the numbers the page states.
func TestDocExample(t *testing.T) {
	blocks := fenced(t, formatDoc, "jsonl")
	if len(blocks) != 2 {
		t.Fatalf("%d jsonl blocks in %s, want 2: the complete example and version 2's", len(blocks), formatDoc)
	}
	if _, err := Read(strings.NewReader(blocks[0]), "example.jsonl"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != blocks[0] {
		t.Errorf("the example in %s differs from testdata/mlp.jsonl", formatDoc)
	}
	doc, _ := os.ReadFile(formatDoc)
	for _, number := range []string{"11 operations, 10 launches", "16128", "5824 elements", "3776 in f32", "2048 in i4", "inputs 16384", "24578.5 bytes at operation 7 (exactly 49157/2", "40962.5 bytes (81925/2)"} {
		if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), number) {
			t.Errorf("%s no longer says %q", formatDoc, number)
		}
	}
}

// TestDocStepExample reads version 2's example, a training step, and
// checks its phases.
func TestDocStepExample(t *testing.T) {
	blocks := fenced(t, formatDoc, "jsonl")
	if len(blocks) != 2 {
		t.Fatalf("%d jsonl blocks in %s, want 2", len(blocks), formatDoc)
	}
	rec, err := Read(strings.NewReader(blocks[1]), "step.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Version != StepVersion || rec.Ops.Phase(0) != Forward || rec.Ops.Phase(2) != Optimizer {
		t.Errorf("version 2's example: version %d, phases %v", rec.Header.Version, []Phase{rec.Ops.Phase(0), rec.Ops.Phase(1), rec.Ops.Phase(2)})
	}
}

// TestDocRecords scans each record the page shows alone: each is a valid
// line of its kind.
func TestDocRecords(t *testing.T) {
	blocks := fenced(t, formatDoc, "json")
	if len(blocks) < 5 {
		t.Fatalf("%d json blocks in %s, want one per kind of record", len(blocks), formatDoc)
	}
	kinds := map[Kind]bool{}
	for _, b := range blocks {
		s := NewScanner(strings.NewReader(b), "doc")
		for s.Scan() {
			kinds[s.Record().Kind] = true
		}
		if err := s.Err(); err != nil {
			t.Error(err)
		}
	}
	if len(kinds) != 5 {
		t.Errorf("the page shows records of %d kinds, want 5", len(kinds))
	}
}
