package record_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"memsym/count"
	"memsym/interp"
	"memsym/record"
)

// The bad-input catalogue: each case is a recording and what memsym says
// of it, exactly. docs/errors.md lists the same cases with the same
// messages; TestCatalogueDocumented keeps the two equal.

// hdr is the header of most cases.
const hdr = `{"memsym": 1, "entry": "F.apply", "dims": {"B": 2}}` + "\n"

// hdr2 is the header of a step's cases, in version 2; stepW and stepG
// declare a parameter w and a temp g of two f32 each.
const (
	hdr2  = `{"memsym": 2, "entry": "F.step", "dims": {"B": 2}}` + "\n"
	stepW = `{"buffer": 1, "dtype": "f32", "shape": [2], "role": "param", "name": "w"}`
	stepG = `{"buffer": 2, "dtype": "f32", "shape": [2], "name": "g"}`
)

// lines joins records into a recording, one per line.
func lines(records ...string) string { return strings.Join(records, "\n") + "\n" }

type catalogueCase struct {
	name string // the case's name in docs/errors.md
	in   string // the recording, read as r.jsonl
	want string // the exact error, or "accepted: " and its counts
}

// readCases are read by record.Read.
var readCases = []catalogueCase{
	// The file as a whole.
	{"empty file", "",
		`r.jsonl:1: the recording ends without the header and the result line {"result": [...]}`},
	{"truncated file", hdr + `{"buffer": 1, "dtype": "f32", "shape": [2, 1`,
		`r.jsonl:2: the file ends in the middle of a record (cut off?): expected a comma or ] in an array, found the end of the line`},
	{"truncated inside a string", hdr + `{"result": [], "meta": "cut`,
		`r.jsonl:2: the file ends in the middle of a record (cut off?): the line ends inside a string: expected its closing "`},
	{"result missing", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"op": "a", "writes": [1]}`),
		`r.jsonl:3: the recording ends without the result line {"result": [...]}`},
	{"invalid UTF-8 in a string", hdr + "{\"buffer\": 1, \"bytes\": 4, \"name\": \"w\xff\"}\n",
		`r.jsonl:2: invalid UTF-8 (byte 0xff) in a string: a recording is UTF-8`},
	{"invalid UTF-8 between tokens", hdr + "{\"buffer\": 1, \xff\"bytes\": 4}\n",
		`r.jsonl:2: expected a key in double quotes, found "\xff"`},
	{"lone surrogate", hdr + `{"buffer": 1, "bytes": 4, "name": "\ud800"}` + "\n",
		`r.jsonl:2: a lone surrogate \ud800 in a string: expected a high surrogate followed by a low one`},
	{"control character in a string", hdr + "{\"buffer\": 1, \"bytes\": 4, \"name\": \"a\tb\"}\n",
		`r.jsonl:2: a control character (byte 0x09) in a string: expected it escaped, as \u0009`},
	{"two records on a line", hdr + `{"result": []} {"result": []}` + "\n",
		`r.jsonl:2: expected the end of the line after the record's closing }, found an object`},
	{"nesting too deep in meta", `{"memsym": 1, "dims": {}, "meta": ` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "}\n",
		`r.jsonl:1: values nested more than 512 deep`},
	{"not an object", hdr + "[1, 2]\n",
		`r.jsonl:2: expected a record, a JSON object {...}, found an array`},

	// Kinds and keys.
	{"a record of no kind", hdr + `{"name": "x"}` + "\n",
		`r.jsonl:2: a record without a kind: expected one of the keys "memsym", "buffer", "view", "op" or "result"`},
	{"a record of two kinds", hdr + `{"buffer": 1, "op": "a"}` + "\n",
		`r.jsonl:2: a record with more than one kind ("buffer" and "op"): expected exactly one`},
	{"a misspelt key", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"op": "a", "read": [1], "writes": [1]}`),
		`r.jsonl:3: unknown key "read" in an op: expected "op", "path", "reads", "writes", "launch", "phase" or "meta"`},
	{"a key given twice", hdr + `{"buffer": 1, "bytes": 4, "bytes": 8}` + "\n",
		`r.jsonl:2: key "bytes" given twice: a record's keys are unique`},
	{"a key that belongs elsewhere", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"view": 2, "of": 1, "role": "input"}`),
		`r.jsonl:3: key "role" does not belong in a view: expected "view", "dtype", "shape", "name", "of" or "meta"`},

	// Wrong types.
	{"a string for an id", hdr + `{"buffer": "1", "bytes": 4}` + "\n",
		`r.jsonl:2: "buffer" must be an integer id, found "1"`},
	{"a trailing comma in an array", hdr + `{"buffer": 1, "bytes": 4}` + "\n" + `{"op": "f", "reads": [1,], "writes": [1]}` + "\n",
		`r.jsonl:3: "reads" must be an array of integer ids, found ]`}, // a delimiter, not a string "]"
	{"an exponent for an id", hdr + `{"buffer": 1e2, "bytes": 4}` + "\n",
		`r.jsonl:2: "buffer" must be an integer id, found 1e2`},
	{"an id beyond 64 bits", hdr + `{"buffer": 18446744073709551616, "bytes": 4}` + "\n",
		`r.jsonl:2: "buffer" must be an integer id, found 18446744073709551616, which does not fit in a 64-bit integer`},
	{"a shape that is not an array", hdr + `{"buffer": 1, "dtype": "f32", "shape": "x"}` + "\n",
		`r.jsonl:2: "shape" must be an array of non-negative integers, found "x"`},
	{"a negative axis", hdr + `{"buffer": 1, "dtype": "f32", "shape": [4, -2]}` + "\n",
		`r.jsonl:2: "shape" must be an array of non-negative integers, found -2`},
	{"a fraction in a shape", hdr + `{"buffer": 1, "dtype": "f32", "shape": [2.0]}` + "\n",
		`r.jsonl:2: "shape" must be an array of non-negative integers, found 2.0`},
	{"NaN for bytes", hdr + `{"buffer": 1, "bytes": NaN}` + "\n",
		`r.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found NaN`},
	{"a zero denominator", hdr + `{"buffer": 1, "bytes": "3/0"}` + "\n",
		`r.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found "3/0"`},
	{"reads not an array", hdr + `{"op": "a", "reads": 1}` + "\n",
		`r.jsonl:2: "reads" must be an array of integer ids, found 1`},
	{"launch not a boolean", hdr + `{"op": "a", "launch": "no"}` + "\n",
		`r.jsonl:2: "launch" must be true or false, found "no"`},
	{"a newline in a path", hdr + `{"op": "a", "path": "blocks\nx"}` + "\n",
		`r.jsonl:2: path "blocks\nx": expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]`},
	{"a C1 control in a path", hdr + `{"op": "a", "path": "a\u009b31mX"}` + "\n",
		`r.jsonl:2: path "a\u009b31mX": expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]`},
	{"a bidirectional control in a path", hdr + `{"op": "a", "path": "a\u202eb"}` + "\n",
		`r.jsonl:2: path "a\u202eb": expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]`},
	{"launch null", hdr + `{"op": "a", "launch": null}` + "\n",
		`r.jsonl:2: "launch" must be true or false, found null`},
	{"launch nulls", hdr + `{"op": "a", "launch": nulls, "path": "x"}` + "\n",
		`r.jsonl:2: "launch" must be true or false, found nulls`},
	{"launch truex", hdr + `{"op": "a", "launch": truex}` + "\n",
		`r.jsonl:2: "launch" must be true or false, found truex`},
	{"a dtype object's key twice", hdr + `{"buffer": 1, "dtype": {"bits": 4, "bits": 8}, "shape": [3]}` + "\n",
		`r.jsonl:2: key "bits" given twice: a dtype object has one key, "bits"`},
	{"a second byte order mark", "\ufeff\ufeff" + hdr,
		`r.jsonl:1: expected a record, a JSON object {...}, found "\ufeff"`},
	{"a no-break space before the record", "\u00a0" + hdr,
		`r.jsonl:1: expected a record, a JSON object {...}, found "\u00a0"`},
	{"an unknown role", hdr + `{"buffer": 1, "bytes": 4, "role": "weight"}` + "\n",
		`r.jsonl:2: "role" must be "param", "input", "state" or "temp", found "weight"`},
	{"an unknown dtype", hdr + `{"buffer": 1, "dtype": "f128", "shape": [2]}` + "\n",
		`r.jsonl:2: unknown dtype "f128": expected f64, f32, f16, bf16, f8, i64, i32, i16, i8, u8, i4, u4, bool or {"bits": N}`},
	{"zero bits", hdr + `{"buffer": 1, "dtype": {"bits": 0}, "shape": [2]}` + "\n",
		`r.jsonl:2: "bits" must be an integer from 1 to 1048576, found 0`},
	{"no size", hdr + `{"buffer": 1, "name": "w"}` + "\n",
		`r.jsonl:2: buffer 1 has no size: expected "dtype" and "shape", or "bytes"`},
	{"two sizes", hdr + `{"buffer": 1, "bytes": 8, "dtype": "f32", "shape": [2]}` + "\n",
		`r.jsonl:2: buffer 1 gives both "bytes" and a dtype or shape: expected "dtype" and "shape", or "bytes"`},

	// The header.
	{"no header", `{"buffer": 1, "bytes": 4}` + "\n",
		`r.jsonl:1: a buffer before the header: the first line must be the header {"memsym": 1, "dims": {...}}`},
	{"two headers", hdr + hdr,
		`r.jsonl:2: a second header: a recording has one header, on its first line`},
	{"a header without dims", `{"memsym": 1}` + "\n",
		`r.jsonl:1: the header has no "dims": expected {"memsym": 1, "dims": {"B": 2, ...}}, with {} for none`},
	{"an unknown version", lines(`{"memsym": 3, "dims": {}}`, `{"result": []}`),
		`r.jsonl:1: format version 3: this memsym reads versions 1 and 2`},
	{"a non-integer dim", `{"memsym": 1, "dims": {"B": 1.5}}` + "\n",
		`r.jsonl:1: dimension B must be an integer of at least 1, found 1.5`},
	{"a zero dim", `{"memsym": 1, "dims": {"B": 0}}` + "\n",
		`r.jsonl:1: dimension B = 0: dimensions are integers of at least 1`},
	{"a dim named twice", `{"memsym": 1, "dims": {"B": 2, "B": 3}}` + "\n",
		`r.jsonl:1: dimension "B" given twice`},
	{"a bad dim name", `{"memsym": 1, "dims": {"2B": 2}}` + "\n",
		`r.jsonl:1: dimension name "2B": expected an ASCII letter followed by ASCII letters, digits or _`},
	{"a dim that is also a const", `{"memsym": 1, "dims": {"B": 2}, "consts": {"B": 2}}` + "\n",
		`r.jsonl:1: "B" is given twice among the dimensions and constants`},

	// Ids and the order of declarations.
	{"an id declared twice", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"buffer": 1, "bytes": 8}`),
		`r.jsonl:3: buffer 1 is declared twice: ids are unique`},
	{"a view reusing its target's id", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"view": 1, "of": 1}`),
		`r.jsonl:3: view 1 is declared twice: ids are unique`},
	{"an undeclared id read", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"op": "a", "reads": [7], "writes": [1]}`),
		`r.jsonl:3: operation 1 reads 7, which is not declared before it`},
	{"an id used before its declaration", lines(hdr[:len(hdr)-1], `{"op": "a", "writes": [1]}`, `{"buffer": 1, "bytes": 4}`),
		`r.jsonl:2: operation 1 writes 1, which is not declared before it`},
	{"ids out of order", lines(hdr[:len(hdr)-1], `{"buffer": 5, "bytes": 4}`, `{"buffer": 3, "bytes": 2, "role": "input"}`, `{"op": "a", "reads": [3], "writes": [5]}`, `{"result": [5]}`),
		`accepted: params 0, inputs 2, live [4], peak 4 at operation 1, outputs 4`},
	{"a view of itself", hdr + `{"view": 2, "of": 2}` + "\n",
		`r.jsonl:2: view 2 is a view of itself: "of" must name a buffer declared before it`},
	{"a cycle of views", lines(hdr[:len(hdr)-1], `{"view": 2, "of": 3}`, `{"view": 3, "of": 2}`),
		`r.jsonl:2: view 2 is of 3, which is not declared before it`},

	// Operations.
	{"an operation without a label", hdr + `{"op": ""}` + "\n",
		`r.jsonl:2: an operation without a label: "op" names it, such as "Linear.apply/%5"`},
	{"a malformed path", hdr + `{"op": "a", "path": "blocks[01].up"}` + "\n",
		`r.jsonl:2: path "blocks[01].up": expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]`},
	{"a read of a buffer never written", lines(hdr[:len(hdr)-1], `{"buffer": 1, "dtype": "i64", "shape": [2], "name": "tokens"}`, `{"buffer": 2, "dtype": "f32", "shape": [2]}`, `{"op": "embed", "reads": [1], "writes": [2]}`),
		"r.jsonl:4: buffer 1 is read by operation 1 (`embed`) before any operation writes it; a caller-held input is declared with \"role\": \"input\""},
	{"the same read, declared an input", lines(hdr[:len(hdr)-1], `{"buffer": 1, "dtype": "i64", "shape": [2], "role": "input", "name": "tokens"}`, `{"buffer": 2, "dtype": "f32", "shape": [2]}`, `{"op": "embed", "reads": [1], "writes": [2]}`, `{"result": [2]}`),
		`accepted: params 0, inputs 16, live [8], peak 8 at operation 1, outputs 8`},
	{"a read through a view of a buffer never written", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"view": 2, "of": 1}`, `{"op": "a", "reads": [2]}`),
		"r.jsonl:4: buffer 1 is read (through view 2) by operation 1 (`a`) before any operation writes it; a caller-held input is declared with \"role\": \"input\""},
	{"writes to a param", lines(hdr[:len(hdr)-1], `{"buffer": 1, "dtype": "f32", "shape": [4], "role": "param", "name": "w"}`, `{"buffer": 2, "dtype": "f32", "shape": [4], "name": "grad"}`, `{"op": "grad", "reads": [1], "writes": [2]}`, `{"op": "step", "reads": [1, 2], "writes": [1]}`, `{"result": [1]}`),
		`accepted: params 16, inputs 16, live [16 16], peak 16 at operation 1, outputs 16`},

	// A training step (version 2).
	{"a phase in version 1", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"op": "a", "writes": [1], "phase": "forward"}`),
		"r.jsonl:3: operation 1 (`a`) gives a \"phase\", which is new in version 2: the header says version 1"},
	{"an unknown phase", hdr2 + `{"op": "a", "phase": "sideways"}` + "\n",
		`r.jsonl:2: "phase" must be "forward", "backward" or "optimizer", found "sideways"`},
	{"a step's operation without a phase", lines(hdr2[:len(hdr2)-1], `{"buffer": 1, "bytes": 4}`, `{"op": "a", "writes": [1], "phase": "forward"}`, `{"op": "b", "reads": [1]}`),
		"r.jsonl:4: operation 2 (`b`) has no \"phase\", but operation 1 has one: in a recording of a step every operation gives its phase"},
	{"a forward operation after the backward began", lines(hdr2[:len(hdr2)-1], stepW, `{"buffer": 2, "dtype": "f32", "shape": [2], "name": "y"}`,
		`{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}`, `{"buffer": 3, "dtype": "f32", "shape": [2], "name": "dw"}`,
		`{"op": "f (vjp)", "reads": [2], "writes": [3], "phase": "backward"}`, `{"op": "g", "reads": [2], "writes": [2], "phase": "forward"}`),
		"r.jsonl:7: operation 3 (`g`) is in the forward phase, but the backward phase began at operation 2: a step's operations come forward, then backward, then optimizer"},
	{"a gradient read before it is written", lines(hdr2[:len(hdr2)-1], stepW, `{"buffer": 2, "dtype": "f32", "shape": [2], "name": "y"}`,
		`{"op": "f", "reads": [1], "writes": [2], "phase": "forward"}`, `{"buffer": 3, "dtype": "f32", "shape": [2], "name": "dy"}`,
		`{"buffer": 4, "dtype": "f32", "shape": [2], "name": "dw"}`, `{"op": "f (vjp)", "reads": [3, 1], "writes": [4], "phase": "backward"}`),
		"r.jsonl:7: buffer 3 is read by operation 2 (`f (vjp)`) before any operation writes it; in the backward phase a gradient must be written (by the first vector-Jacobian product that reaches it) before it is read"},
	{"an optimizer's state not declared", lines(hdr2[:len(hdr2)-1], stepW, stepG, `{"op": "grad", "reads": [1], "writes": [2], "phase": "backward"}`,
		`{"buffer": 3, "dtype": "f32", "shape": [2], "name": "m"}`, `{"op": "sgd", "reads": [1, 2, 3], "writes": [1, 3], "phase": "optimizer"}`),
		"r.jsonl:6: buffer 3 is read by operation 2 (`sgd`) before any operation writes it; an optimizer's state, held across steps, is declared with \"role\": \"state\", and a gradient is written by the backward phase before the optimizer reads it"},
	{"the same state, declared", lines(hdr2[:len(hdr2)-1], stepW, stepG, `{"op": "grad", "reads": [1], "writes": [2], "phase": "backward"}`,
		`{"buffer": 3, "dtype": "f32", "shape": [2], "role": "state", "name": "m"}`, `{"op": "sgd", "reads": [1, 2, 3], "writes": [1, 3], "phase": "optimizer"}`, `{"result": [1, 3]}`),
		`accepted: params 8, inputs 16, live [8 8], peak 8 at operation 1, outputs 16`},
	{"a state read outside the optimizer", lines(hdr2[:len(hdr2)-1], stepW, stepG, `{"buffer": 3, "dtype": "f32", "shape": [2], "role": "state", "name": "m"}`,
		`{"op": "grad", "reads": [1, 3], "writes": [2], "phase": "backward"}`),
		"r.jsonl:5: operation 1 (`grad`), in the backward phase, reads buffer 3, an optimizer's state: only the optimizer phase reads or writes the states"},
	{"a state in version 1", hdr + `{"buffer": 1, "dtype": "f32", "shape": [2], "role": "state", "name": "m"}` + "\n",
		`r.jsonl:2: buffer 1 has the role "state", which is new in version 2: the header says version 1`},

	// The result.
	{"a record after the result", lines(hdr[:len(hdr)-1], `{"result": []}`, `{"op": "a"}`),
		`r.jsonl:3: an op after the result: the result must be the last line`},
	{"a result naming an undeclared id", hdr + `{"result": [4]}` + "\n",
		`r.jsonl:2: the result names 4, which is not declared`},
	{"a result naming a temp never written", lines(hdr[:len(hdr)-1], `{"buffer": 1, "bytes": 4}`, `{"result": [1]}`),
		`r.jsonl:3: the result names buffer 1, which no operation before it writes (the result is the last line)`},
}

// outcome returns Read's error, or "accepted: " and the counts.
func outcome(rec *record.Recording, err error) string {
	if err != nil {
		return err.Error()
	}
	c := count.At(rec)
	live := make([]string, len(c.Live))
	for i, v := range c.Live {
		live[i] = v.String()
	}
	return fmt.Sprintf("accepted: params %s, inputs %s, live [%s], peak %s at operation %d, outputs %s",
		c.Params, c.Inputs, strings.Join(live, " "), c.Peak, c.PeakOp, c.Outputs)
}

func TestCatalogueRead(t *testing.T) {
	for _, c := range readCases {
		t.Run(c.name, func(t *testing.T) {
			if got := outcome(record.Read(strings.NewReader(c.in), "r.jsonl")); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// longLine is a reader of one header line whose "meta" string runs to n
// bytes, made as it is read; it counts what the reader took.
type longLine struct {
	n, read int64
	prefix  string
}

func (l *longLine) Read(p []byte) (int, error) {
	if l.read >= l.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), l.n-l.read)]
	k := 0
	if l.read < int64(len(l.prefix)) {
		k = copy(p, l.prefix[l.read:])
	}
	for k < len(p) {
		k += copy(p[k:], filler)
	}
	l.read += int64(k)
	return k, nil
}

var filler = []byte(strings.Repeat("a", 4096))

// longLineCase is the catalogue's one generated case.
const (
	longLineName = "a line of 100 MB"
	longLineWant = "big.jsonl:1: line longer than 64 MiB"
)

// TestCatalogueLongLine reads a line of 100 MB, made as it is read: the
// reader must refuse it having read little more than its limit.
func TestCatalogueLongLine(t *testing.T) {
	in := &longLine{n: 100 << 20, prefix: `{"memsym": 1, "dims": {}, "meta": "`}
	_, err := record.Read(in, "big.jsonl")
	if err == nil || err.Error() != longLineWant {
		t.Fatalf("got %v, want %s", err, longLineWant)
	}
	t.Logf("read %d bytes", in.read)
	if limit := int64(record.MaxLine + 1<<20); in.read > limit {
		t.Errorf("read %d bytes of the line before refusing it: expected at most %d", in.read, limit)
	}
}

// gridCase is a grid of recordings, and check points, given to
// interp.Build, each a recording of a small program at its point.
type gridCase struct {
	name   string
	grid   []gridFile
	checks []gridFile
	want   string
}

// gridFile is one recording: its name and its text.
type gridFile struct{ name, text string }

// program writes the recording of a small program at B = b, T = t: an
// input, a temp of B·T·T elements and a result, changed by edit if given.
func program(b, t int64, edit func(string) string) gridFile {
	text := lines(
		fmt.Sprintf(`{"memsym": 1, "entry": "F.apply", "dims": {"B": %d, "T": %d}}`, b, t),
		fmt.Sprintf(`{"buffer": 1, "dtype": "i64", "shape": [%d, %d], "role": "input", "name": "tokens"}`, b, t),
		fmt.Sprintf(`{"buffer": 2, "dtype": "f32", "shape": [%d, %d, %d], "name": "scores"}`, b, t, t),
		`{"op": "F.apply/%1", "reads": [1], "writes": [2]}`,
		`{"result": [2]}`)
	if edit != nil {
		text = edit(text)
	}
	return gridFile{fmt.Sprintf("r_B%d_T%d.jsonl", b, t), text}
}

// grid returns the recordings at B ∈ bs, T ∈ ts; edit changes the one at
// (b0, t0).
func grid(bs, ts []int64, b0, t0 int64, edit func(string) string) []gridFile {
	var out []gridFile
	for _, b := range bs {
		for _, t := range ts {
			if b == b0 && t == t0 {
				out = append(out, program(b, t, edit))
			} else {
				out = append(out, program(b, t, nil))
			}
		}
	}
	return out
}

// cubic returns the recordings at B ∈ bs, T ∈ ts of the program whose
// scores have B·T³ elements.
func cubic(bs, ts []int64) []gridFile {
	var out []gridFile
	for _, b := range bs {
		for _, t := range ts {
			out = append(out, program(b, t, func(s string) string {
				return strings.Replace(s, fmt.Sprintf(`"shape": [%d, %d, %d]`, b, t, t), fmt.Sprintf(`"shape": [%d, %d, %d, %d]`, b, t, t, t), 1)
			}))
		}
	}
	return out
}

var (
	bs3 = []int64{1, 2, 3}
	ts3 = []int64{4, 8, 12}
)

// layers returns the recordings at B ∈ {1, 2, 3}, L ∈ {1, 2, 3} of a
// program of L layers, each one operation in layers[i]; at L = 3 the third
// layer has one operation more.
func layers() []gridFile {
	var out []gridFile
	for _, b := range bs3 {
		for l := int64(1); l <= 3; l++ {
			recs := []string{
				fmt.Sprintf(`{"memsym": 1, "entry": "F.apply", "dims": {"B": %d, "L": %d}}`, b, l),
				fmt.Sprintf(`{"buffer": 1, "dtype": "f32", "shape": [%d, 4], "role": "input", "name": "x"}`, b),
			}
			id, prev := int64(2), int64(1)
			for i := int64(0); i < l; i++ {
				recs = append(recs,
					fmt.Sprintf(`{"buffer": %d, "dtype": "f32", "shape": [4, 4], "role": "param", "name": "w", "group": "layers[%d]"}`, id, i),
					fmt.Sprintf(`{"buffer": %d, "dtype": "f32", "shape": [%d, 4], "name": "y", "group": "layers[%d]"}`, id+1, b, i),
					fmt.Sprintf(`{"op": "Layer.apply", "path": "layers[%d]", "reads": [%d, %d], "writes": [%d]}`, i, prev, id, id+1))
				prev, id = id+1, id+2
				if l == 3 && i == 2 {
					recs = append(recs,
						fmt.Sprintf(`{"buffer": %d, "dtype": "f32", "shape": [%d, 4], "name": "y2", "group": "layers[%d]"}`, id, b, i),
						fmt.Sprintf(`{"op": "Layer.extra", "path": "layers[%d]", "reads": [%d], "writes": [%d]}`, i, prev, id))
					prev, id = id, id+1
				}
			}
			recs = append(recs, fmt.Sprintf(`{"result": [%d]}`, prev))
			out = append(out, gridFile{fmt.Sprintf("r_B%d_L%d.jsonl", b, l), lines(recs...)})
		}
	}
	return out
}

var gridCases = []gridCase{
	{"dims missing from one grid file", grid(bs3, ts3, 2, 8, func(s string) string {
		return strings.Replace(s, `"dims": {"B": 2, "T": 8}`, `"dims": {"B": 2}`, 1)
	}), nil,
		"r_B2_T8.jsonl:1: the dimensions are B but r_B1_T4.jsonl's are B, T: the recordings of a grid have the same dimensions"},
	{"non-integer dims", grid(bs3, ts3, 2, 8, func(s string) string {
		return strings.Replace(s, `"T": 8}`, `"T": 8.5}`, 1)
	}), nil,
		"r_B2_T8.jsonl:1: dimension T must be an integer of at least 1, found 8.5"},
	{"duplicate grid points", append(grid(bs3, ts3, 0, 0, nil), gridFile{"again.jsonl", program(3, 8, nil).text}), nil,
		"r_B3_T8.jsonl and again.jsonl are both at B = 3, T = 8: the grid has one recording per point"},
	{"a file given twice", append(grid(bs3, ts3, 0, 0, nil), program(3, 8, nil)), nil,
		"r_B3_T8.jsonl is given twice: the grid has one recording per point"},
	{"a grid of two values per dim", grid([]int64{1, 2}, []int64{4, 8}, 0, 0, nil), nil,
		"dimension B takes 2 values on the grid (1, 2): expected exactly three, as a polynomial of degree 2 in it needs"},
	{"a grid point missing", grid(bs3, ts3, 0, 0, nil)[1:], nil,
		"no recording at B = 1, T = 4: the grid B ∈ {1, 2, 3}, T ∈ {4, 8, 12} has 3^2 points, one recording each"},
	{"a check point on the grid", grid(bs3, ts3, 0, 0, nil), []gridFile{program(5, 8, nil)},
		"r_B5_T8.jsonl:1: the check point B = 5, T = 8 has T = 8, a value of the grid: a check point must be off the grid in every dimension, for an error term vanishes on a grid value"},
	{"a buffer numbered differently", grid(bs3, ts3, 2, 4, func(s string) string {
		return strings.NewReplacer(`"buffer": 2,`, `"buffer": 20,`, `"writes": [2]`, `"writes": [20]`, `"result": [2]`, `"result": [20]`).Replace(s)
	}), nil,
		"r_B2_T4.jsonl:3 and r_B1_T4.jsonl:3 differ: declaration 2 is buffer 2 at B = 1, T = 4 but buffer 20 at B = 2, T = 4; the recordings are matched declaration by declaration: a buffer's id, role, type, rank, name and group are the same at every point, only its sizes differing (number buffers as they are declared, not as they are allocated)"},
	{"a dimension that changes the operations", grid(bs3, ts3, 2, 12, func(s string) string {
		return strings.Replace(s, `{"result"`, `{"op": "F.apply/%1", "reads": [1], "writes": [2]}`+"\n"+`{"result"`, 1)
	}), nil,
		`r_B2_T12.jsonl:5 and r_B1_T4.jsonl:5 differ: record 5 is the result at B = 1, T = 4 but operation "F.apply/%1" at B = 2, T = 12; a dimension that changes the operations (such as a fold's iteration count) cannot be interpolated: make it a constant`},
	{"an L grid whose blocks differ", layers(), nil,
		`r_B1_L3.jsonl:13: operation 4 ("Layer.extra" in layers[2]) does not align: iteration 2 of layers holds more operations than the first, 1; a dimension that changes the operations must count blocks that repeat one block exactly (as a layer count L does), else make it a constant`},
	{"a buffer not of degree 2", cubic(bs3, ts3), []gridFile{cubic([]int64{5}, []int64{7})[0]},
		"r_B5_T7.jsonl:3: buffer 2 \"scores\", made by operation 1 (\"F.apply/%1\", the entry's own), has 6860 bytes at B = 5, T = 7 but its polynomial 96 · B · T² − 704 · B · T + 1536 · B gives 6560: its bytes are not a polynomial of degree ≤ 2 in each dimension"},
}

// sources serves the files from memory, each read by a record.Scanner.
func sources(files []gridFile) []interp.Source {
	var out []interp.Source
	for _, f := range files {
		out = append(out, interp.Source{Name: f.name, Open: func() (record.Stream, error) {
			return record.NewScanner(strings.NewReader(f.text), f.name), nil
		}})
	}
	return out
}

func TestCatalogueGrid(t *testing.T) {
	for _, c := range gridCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := interp.Build(sources(c.grid), sources(c.checks))
			if got := fmt.Sprint(err); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// documented reads the catalogue's tables in docs/errors.md: rows of
// "| case | the recording | `message` |", the message last, in a code
// span (double backquotes when it holds one), "\|" for a bar.
func documented(t *testing.T) map[string]string {
	t.Helper()
	text, err := os.ReadFile("../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	// The section on the command line is cmd/memsym's to check.
	text, _, _ = bytes.Cut(text, []byte("\n## On the command line\n"))
	rows := map[string]string{}
	cell := regexp.MustCompile(`\s*((?:[^|\\]|\\.)*?)\s*\|`)
	for n, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| case ") {
			continue
		}
		var cells []string
		for _, m := range cell.FindAllStringSubmatch(line[1:], -1) {
			cells = append(cells, strings.ReplaceAll(m[1], `\|`, "|"))
		}
		if len(cells) < 2 {
			t.Fatalf("docs/errors.md:%d: expected | case | ... | `message` |", n+1)
		}
		name, msg := cells[0], cells[len(cells)-1]
		switch {
		case strings.HasPrefix(msg, "`` ") && strings.HasSuffix(msg, " ``"):
			msg = msg[3 : len(msg)-3]
		case strings.HasPrefix(msg, "`") && strings.HasSuffix(msg, "`") && len(msg) > 1:
			msg = msg[1 : len(msg)-1]
		default:
			t.Fatalf("docs/errors.md:%d: the message %q is not in backquotes", n+1, msg)
		}
		if _, dup := rows[name]; dup {
			t.Fatalf("docs/errors.md:%d: case %q listed twice", n+1, name)
		}
		rows[name] = msg
	}
	return rows
}

// TestCatalogueDocumented checks that docs/errors.md lists every case of
// the catalogue with its exact message, and no case the tests lack.
func TestCatalogueDocumented(t *testing.T) {
	doc := documented(t)
	want := map[string]string{longLineName: longLineWant}
	for _, c := range readCases {
		want[c.name] = c.want
	}
	for _, c := range gridCases {
		want[c.name] = c.want
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, ok := doc[name]
		switch {
		case !ok:
			t.Errorf("docs/errors.md lacks the case %q: `%s`", name, want[name])
		case got != want[name]:
			t.Errorf("docs/errors.md gives the case %q as\n  %s\nbut memsym says\n  %s", name, got, want[name])
		}
	}
	for name := range doc {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/errors.md lists %q, which no test checks", name)
		}
	}
}
