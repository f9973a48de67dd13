package record

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	"memsym/poly"
)

// The property of Follow: reading a recording by comparison with another's
// lines, and by Scan where Follow stops, gives the records, the sizes, the
// line numbers and the error that Scan alone gives, whatever the second
// recording holds.

// keepAll scans a and keeps every record's line after the first; it
// returns the templates and a's records, described without their lines and
// sizes.
func keepAll(a []byte) (*Templates, []string) {
	var t Templates
	var recs []string
	s := NewScanner(bytes.NewReader(a), "a.jsonl")
	for s.Scan() {
		r := *s.Record()
		r.Line = 0
		recs = append(recs, describeRecord(&r, false))
		if len(recs) > 1 {
			s.Keep(&t)
		}
	}
	return &t, recs
}

// describeRecord writes every field of r; without sizes, its shape's values
// and bytes are left out, for comparing records that differ in those only.
func describeRecord(r *Record, sizes bool) string {
	b := r.Buffer
	bytes := b.Bytes.String()
	shape := fmt.Sprint(b.Shape, b.Shape == nil)
	if !sizes {
		bytes = ""
		shape = fmt.Sprint(len(b.Shape), b.Shape == nil)
	}
	b.Bytes, b.Shape = poly.Rat{}, nil
	return fmt.Sprintf("kind %v line %d header %+v buffer %+v shape %s bytes %s op %+v result %v %v",
		r.Kind, r.Line, r.Header, b, shape, bytes, r.Op, r.Result, r.Result == nil)
}

// scanned is one record as a reader gave it.
type scanned struct {
	full     string   // the record whole, when Scan read it
	followed bool     // Follow read it
	size     poly.Rat // its size: Follow's, or the bytes of Scan's buffer
	kind     Kind
	line     int
}

// readScanning reads b with Scan alone.
func readScanning(b []byte) ([]scanned, error) {
	var out []scanned
	s := NewScanner(bytes.NewReader(b), "b.jsonl")
	for s.Scan() {
		r := s.Record()
		out = append(out, scanned{full: describeRecord(r, true), line: r.Line, kind: r.Kind, size: r.Buffer.Bytes})
	}
	return out, s.Err()
}

// readFollowing reads b by Follow where it can, from its second record on,
// and by Scan where Follow stops.
func readFollowing(t *Templates, b []byte) ([]scanned, error) {
	return followAll(t, NewScanner(bytes.NewReader(b), "b.jsonl"))
}

// followAll reads s by Follow where it can, from its second record on, and
// by Scan where Follow stops.
func followAll(t *Templates, s *Scanner) ([]scanned, error) {
	var out []scanned
	j := 0 // the template of the next record
	if !s.Scan() {
		return out, s.Err()
	}
	out = append(out, scanned{full: describeRecord(s.Record(), true), line: s.Record().Line})
	for {
		var sizes Sizes
		k := s.Follow(t, j, &sizes)
		line := s.Line() - (k - j)
		next := 0
		for i := j; i < k; i++ {
			line++
			r := scanned{followed: true, line: line}
			if kind := t.Kind(i); kind == KindBuffer || kind == KindView {
				r.size = sizes.At(next)
				next++
			}
			out = append(out, r)
		}
		if next != sizes.Len() {
			panic(fmt.Sprintf("Follow gave %d sizes for %d buffers and views", sizes.Len(), next))
		}
		j = k
		if !s.Scan() {
			return out, s.Err()
		}
		out = append(out, scanned{full: describeRecord(s.Record(), true), line: s.Record().Line})
		j++
	}
}

// checkFollow compares the two readings of b, a's lines the templates.
func checkFollow(t *testing.T, a, b []byte) {
	t.Helper()
	tmpl, aRecs := keepAll(a)
	want, wantErr := readScanning(b)
	got, gotErr := readFollowing(tmpl, b)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error by following %v\nby scanning %v\na: %q\nb: %q", gotErr, wantErr, a, b)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records by following, %d by scanning\na:\n%s\nb:\n%s", len(got), len(want), a, b)
	}
	// Scan alone read b's records again, its sizes aside.
	bare, _ := readScanningBare(b)
	for i := range got {
		g, w := got[i], want[i]
		if g.line != w.line {
			t.Fatalf("record %d: line %d by following, %d by scanning", i+1, g.line, w.line)
		}
		if !g.followed {
			if g.full != w.full {
				t.Fatalf("record %d:\nfollowing %s\nscanning  %s", i+1, g.full, w.full)
			}
			continue
		}
		// A record Follow read is a's but for its sizes, and Scan reads
		// the same size.
		if i >= len(aRecs) || bare[i] != aRecs[i] {
			t.Fatalf("record %d was followed but is not the template's:\nb %s\na %s", i+1, bare[i], aRecs[i])
		}
		if w.kind == KindBuffer && !g.size.Equal(w.size) {
			t.Fatalf("record %d: size %s by following, %s by scanning", i+1, g.size, w.size)
		}
		if w.kind == KindView && !g.size.IsZero() {
			t.Fatalf("record %d: a view of size %s by following", i+1, g.size)
		}
	}
}

// readScanningBare is readScanning without the sizes and line numbers.
func readScanningBare(b []byte) ([]string, error) {
	var out []string
	s := NewScanner(bytes.NewReader(b), "b.jsonl")
	for s.Scan() {
		r := *s.Record()
		r.Line = 0
		out = append(out, describeRecord(&r, false))
	}
	return out, s.Err()
}

// sizeValue finds the values of "shape" and "bytes".
var sizeValue = regexp.MustCompile(`"(shape|bytes)": (\[[^\]]*\]|"[^"]*"|[0-9]+)`)

// mutate returns a changed: its sizes rewritten, in valid forms and not,
// and bytes inserted, dropped or changed here and there.
func mutate(rng *rand.Rand, a string) string {
	values := []string{"0", "7", "12345678901234567", "123456789012345678", "1234567890123456789",
		"99999999999999999999", "01", "-0", "-3", "1.5", "2e3", `"8"`, `"3/2"`, `"3/0"`, `"08"`, `"1/x"`, "x", "null"}
	out := sizeValue.ReplaceAllStringFunc(a, func(m string) string {
		if rng.IntN(3) > 0 {
			return m
		}
		key := m[:strings.Index(m, ":")]
		if key == `"bytes"` {
			return key + ": " + values[rng.IntN(len(values))]
		}
		var parts []string
		for range rng.IntN(4) {
			parts = append(parts, values[rng.IntN(7)])
		}
		sep := []string{", ", ",", " , ", ",\t"}[rng.IntN(4)]
		return key + ": [" + strings.Join(parts, sep) + "]"
	})
	b := []byte(out)
	for range rng.IntN(3) {
		if len(b) == 0 {
			break
		}
		i := rng.IntN(len(b))
		switch rng.IntN(5) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			const alphabet = "x\n\r \"{}[],:0123456789"
			b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
		case 2:
			b[i] = byte(rng.IntN(256))
		case 3:
			b = b[:i] // cut short
		case 4:
			b = append(b[:i], append([]byte("\n\n"), b[i:]...)...)
		}
	}
	return string(b)
}

var digits = regexp.MustCompile(`[0-9]+`)

// pointOf rewrites the sizes of the test recording for another point, as
// a recording of the program at other dimensions has them.
func pointOf(a string, scale int) string {
	return sizeValue.ReplaceAllStringFunc(a, func(m string) string {
		key := m[:strings.Index(m, ":")]
		return key + digits.ReplaceAllStringFunc(m[len(key):], func(d string) string {
			var v int
			fmt.Sscan(d, &v)
			return fmt.Sprint(v * scale)
		})
	})
}

func lines2(records ...string) string { return strings.Join(records, "\n") + "\n" }

func followCorpus(t testing.TB) []string {
	data, err := os.ReadFile("testdata/mlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	mlp := string(data)
	return []string{
		mlp,
		hdr + `{"buffer": 1, "bytes": "3/2", "role": "input"}` + "\n" + `{"view": 2, "of": 1}` + "\n" + `{"op": "f", "reads": [2], "writes": []}` + "\n" + `{"result": [1]}` + "\n",
		strings.ReplaceAll(mlp, "\n", "\r\n"),
		lines2(`{"memsym": 2, "dims": {"B": 2}}`, `{"buffer": 1, "bytes": 8, "role": "param"}`, `{"buffer": 2, "bytes": 8, "role": "state"}`,
			`{"buffer": 3, "dtype": "f32", "shape": [2]}`, `{"op": "f", "reads": [1], "writes": [3], "phase": "forward"}`,
			`{"op": "g", "reads": [3, 2], "writes": [2], "phase": "optimizer"}`, `{"result": [3]}`),
	}
}

func TestFollowAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range followCorpus(t) {
		for scale := 1; scale <= 3; scale++ {
			b := pointOf(a, scale)
			checkFollow(t, []byte(a), []byte(b))
			for range 150 {
				checkFollow(t, []byte(a), []byte(mutate(rng, b)))
			}
		}
	}
}

// TestFollowReadsSizesOnly checks that Follow reads a recording at another
// point whole, and gives each buffer's bytes.
func TestFollowReadsSizesOnly(t *testing.T) {
	a := followCorpus(t)[0]
	tmpl, _ := keepAll([]byte(a))
	b := pointOf(a, 2)
	s := NewScanner(strings.NewReader(b), "b.jsonl")
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	var sizes Sizes
	k := s.Follow(tmpl, 0, &sizes)
	if k != tmpl.Len() {
		t.Fatalf("Follow read %d of %d lines", k, tmpl.Len())
	}
	if s.Scan() || s.Err() != nil {
		t.Fatalf("after Follow: a record or an error: %v", s.Err())
	}
	rec, err := Read(strings.NewReader(b), "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if sizes.Len() != rec.Buffers.Len() {
		t.Fatalf("%d sizes for %d buffers", sizes.Len(), rec.Buffers.Len())
	}
	for i, buf := range rec.Buffers.All() {
		if !sizes.At(i).Equal(buf.Bytes) {
			t.Errorf("buffer %d: size %s, want %s", buf.ID, sizes.At(i), buf.Bytes)
		}
	}
	if s.Line() != strings.Count(b, "\n") {
		t.Errorf("line %d after Follow, want %d", s.Line(), strings.Count(b, "\n"))
	}
}

// TestFollowSmallBuffer follows through a reader that gives a few bytes at
// a time, so that lines span the Scanner's reads.
func TestFollowSmallBuffer(t *testing.T) {
	a := followCorpus(t)[0]
	tmpl, _ := keepAll([]byte(a))
	b := pointOf(a, 3)
	s := NewScanner(&trickle{r: strings.NewReader(b)}, "b.jsonl")
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	k := s.Follow(tmpl, 0, new(Sizes))
	if k != tmpl.Len() {
		t.Fatalf("Follow read %d of %d lines", k, tmpl.Len())
	}
}

// trickle reads at most 7 bytes at a time.
type trickle struct{ r *strings.Reader }

func (t *trickle) Read(p []byte) (int, error) { return t.r.Read(p[:min(len(p), 7)]) }

func FuzzFollow(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, a := range followCorpus(f) {
		f.Add([]byte(a), []byte(pointOf(a, 2)))
		f.Add([]byte(a), []byte(mutate(rng, pointOf(a, 3))))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		checkFollow(t, a, b)
	})
}

// TestFollowShapeMemo checks that Follow takes a shape's product from its
// memo only for the same text and rank: shapes that differ in each of the
// memo's words, and a shape of another rank in the entry of a template
// whose shape's text shares it.
func TestFollowShapeMemo(t *testing.T) {
	buffer := func(id int, shape string) string {
		return fmt.Sprintf(`{"buffer": %d, "dtype": "f32", "shape": %s}`, id, shape)
	}
	op := func(id int) string { return fmt.Sprintf(`{"op": "f", "reads": [], "writes": [%d]}`, id) }
	recording := func(shapes ...string) []byte {
		lines := []string{`{"memsym": 1, "dims": {"B": 2}}`}
		for i, s := range shapes {
			lines = append(lines, buffer(i+1, s), op(i+1))
		}
		return []byte(lines2(append(lines, `{"result": [1]}`)...))
	}
	// Lines whose templates are alike share an entry; the shapes read
	// differ in the first, second and third of its words.
	for _, c := range []struct{ template, first, second string }{
		{"[2, 3]", "[4, 3]", "[5, 3]"},
		{"[1, 1, 1, 1, 1]", "[2, 3, 4, 5, 7]", "[2, 3, 4, 5, 9]"},
		{"[1, 1, 1, 1, 1, 1]", "[2, 3, 4, 5, 6, 7]", "[2, 3, 4, 5, 6, 8]"},
		{"[1, 1, 1, 1, 1, 1]", "[2, 3, 4, 5, 6, 7]", "[2, 3, 4, 5, 6, 7]"},
		{"[1, 1, 1, 1, 1, 1]", "[2, 3, 4, 5, 6, 7]", "[2, 3, 4, 5, 6, 77]"},
	} {
		a := recording(c.template, c.template)
		b := recording(c.first, c.second)
		checkFollow(t, a, b)
		tmpl, _ := keepAll(a)
		s := NewScanner(bytes.NewReader(b), "b.jsonl")
		s.Scan()
		if k := s.Follow(tmpl, 0, new(Sizes)); k != tmpl.Len() {
			t.Errorf("%s then %s: Follow read %d of %d lines", c.first, c.second, k, tmpl.Len())
		}
	}
	// Shapes alike at point 0 and not at another, in turns: an entry holds
	// two, and a third takes the place of the one read less lately.
	same := []string{"[1, 64, 64]", "[1, 64, 64]", "[1, 64, 64]", "[1, 64, 64]", "[1, 64, 64]", "[1, 64, 64]", "[1, 64, 64]"}
	for _, turns := range [][]string{
		{"[2, 128, 128]", "[2, 128, 64]", "[2, 128, 128]", "[2, 128, 64]", "[2, 128, 7]", "[2, 128, 64]", "[2, 128, 128]"},
		{"[2, 128, 128]", "[2, 128, 256]", "[2, 128, 128]", "[2, 128, 256]", "[2, 128, 512]", "[2, 128, 256]", "[2, 128, 128]"},
	} {
		a, b := recording(same...), recording(turns...)
		checkFollow(t, a, b)
		tmpl, _ := keepAll(a)
		s := NewScanner(bytes.NewReader(b), "b.jsonl")
		s.Scan()
		if k := s.Follow(tmpl, 0, new(Sizes)); k != tmpl.Len() {
			t.Errorf("%v: Follow read %d of %d lines", turns, k, tmpl.Len())
		}
		// The entry holds the last two read, and notes which was last.
		i := memoIndex([]byte(same[0]))
		es, last := s.shapes.e[i], s.shapes.last[i]
		want0, _, _ := shapeProduct([]byte(turns[6]), 0, 3)
		want1, _, _ := shapeProduct([]byte(turns[5]), 0, 3)
		if es[last].p != want0 || es[1-last].p != want1 {
			t.Errorf("%v: the entry holds products %d and %d (%d last), want %d last and %d", turns, es[0].p, es[1].p, es[last].p, want0, want1)
		}
	}
	// Two templates of different ranks whose shapes' texts have one entry:
	// a rank-1 shape read for the first is no product for the second.
	two := "[2, 3]"
	one := ""
	for k := 1; k < 1<<20 && one == ""; k++ {
		if s := fmt.Sprintf("[%d]", k); memoIndex([]byte(s)) == memoIndex([]byte(two)) {
			one = s
		}
	}
	if one == "" {
		t.Fatal("no rank-1 shape shares an entry with " + two)
	}
	a := recording(one, two)
	b := recording("[6]", "[6]")
	checkFollow(t, a, b)
	tmpl, _ := keepAll(a)
	s := NewScanner(bytes.NewReader(b), "b.jsonl")
	s.Scan()
	if k := s.Follow(tmpl, 0, new(Sizes)); k != 2 {
		t.Errorf("templates %s and %s: Follow read %d lines, want 2: the second's rank differs", one, two, k)
	}
}

// TestFollowKnownShapes follows buffers whose shapes the memo holds, the
// fast way (followKnown), but for those that way leaves to followUnit: a
// size that is not a whole number of bytes, and a view's; each line read,
// each size Scan's.
func TestFollowKnownShapes(t *testing.T) {
	recording := func(shape string) []byte {
		return []byte(lines2(`{"memsym": 1, "dims": {"B": 2}}`,
			`{"buffer": 1, "dtype": "f32", "shape": `+shape+`, "role": "input"}`,
			`{"buffer": 2, "dtype": "f32", "shape": `+shape+`}`, `{"op": "f", "reads": [1], "writes": [2]}`,
			`{"buffer": 3, "dtype": "i4", "shape": `+shape+`}`, `{"op": "g", "reads": [2], "writes": [3]}`,
			`{"buffer": 4, "dtype": "i4", "shape": `+shape+`}`, `{"op": "g", "reads": [3], "writes": [4]}`,
			`{"view": 5, "of": 4, "dtype": "f32", "shape": `+shape+`}`, `{"op": "h", "reads": [5], "writes": []}`,
			`{"buffer": 6, "dtype": "f32", "shape": `+shape+`}`, `{"op": "f", "reads": [5], "writes": [6]}`,
			`{"result": [6]}`))
	}
	a, b := recording("[2, 4]"), recording("[3, 5]")
	checkFollow(t, a, b)
	tmpl, _ := keepAll(a)
	s := NewScanner(bytes.NewReader(b), "b.jsonl")
	s.Scan()
	var sizes Sizes
	if k := s.Follow(tmpl, 0, &sizes); k != tmpl.Len() {
		t.Fatalf("Follow read %d of %d lines", k, tmpl.Len())
	}
	want := []poly.Rat{poly.Int(60), poly.Int(60), poly.Frac(15, 2), poly.Frac(15, 2), {}, poly.Int(60)}
	if sizes.Len() != len(want) {
		t.Fatalf("%d sizes, want %d", sizes.Len(), len(want))
	}
	for i, w := range want {
		if !sizes.At(i).Equal(w) {
			t.Errorf("size %d: %s, want %s", i, sizes.At(i), w)
		}
	}
}

// TestMemoIndexInPlace checks that memoIndex gives a text the same entry
// whether it reads the text in place, with other bytes after it, or copies
// it.
func TestMemoIndexInPlace(t *testing.T) {
	for n := range memoWidth + 2 {
		text := []byte("[1234567, 89, 1011, 12131415, 1617]")[:n]
		alone := append([]byte(nil), text...)[:n:n] // no room past it: copied
		inPlace := append(append([]byte(nil), text...), "garbage past the shape's text"...)[:n]
		if a, b := memoIndex(alone), memoIndex(inPlace); a != b {
			t.Errorf("%q: entry %d copied, %d in place", text, a, b)
		}
	}
}
