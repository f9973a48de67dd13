package record

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The fast reading of lines (Scan's, parseFast and what they use) against
// the reference, parse alone: the same records, sizes' spans, lines,
// offsets and errors, however the input is cut into reads.

// speedLines is a recording in the writers' usual form, as bench/synth
// writes it, of about n operations.
func speedLines(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"memsym": 1, "entry": "Synthetic.apply", "dims": {"B": 3, "T": 192}, "consts": {"N": 1000000, "D": 64}, "realization": "f32"}` + "\n")
	b.WriteString(`{"buffer": 1, "dtype": "f32", "shape": [3, 192, 64], "role": "input", "name": "x"}` + "\n")
	b.WriteString(`{"buffer": 2, "dtype": "f32", "shape": [64, 256], "role": "param", "name": "up", "group": "weights"}` + "\n")
	b.WriteString(`{"buffer": 3, "dtype": "f32", "shape": [256, 64], "role": "param", "name": "down", "group": "weights"}` + "\n")
	x := int64(1)
	id := int64(4)
	names := []string{"up", "act", "scores", "down", "x"}
	for c := 0; 5*c < n; c++ {
		for k, name := range names {
			fmt.Fprintf(&b, `{"buffer": %d, "dtype": "f32", "shape": [3, 192, %d], "name": "%s", "group": "cells[%d]"}`+"\n", id, 64<<(k%3), name, c)
			fmt.Fprintf(&b, `{"op": "Synthetic.%s", "path": "cells[%d]", "reads": [%d, %d], "writes": [%d]}`+"\n", name, c, x, id-1, id)
			id++
		}
		x = id - 1
	}
	fmt.Fprintf(&b, `{"result": [%d]}`+"\n", x)
	return b.Bytes()
}

// chunks reads data in pieces of the sizes that sizes gives in turn.
type chunks struct {
	data  []byte
	sizes []byte
	k     int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := len(c.data)
	if len(c.sizes) > 0 {
		n = 1 + int(c.sizes[c.k%len(c.sizes)])%97
		c.k++
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// scanAll scans data, read in pieces as sizes says, and describes what
// each Scan gave, the error last.
func scanAll(data, sizes []byte, maxLine int, slow bool) []string {
	s := NewScanner(&chunks{data: data, sizes: sizes}, "f.jsonl")
	s.slowOnly = slow
	if maxLine > 0 {
		s.maxLine = maxLine
	}
	return describeScan(s)
}

// describeScan scans s to its end and describes what each Scan gave, the
// error last.
func describeScan(s *Scanner) []string {
	var out []string
	for s.Scan() {
		out = append(out, describeCurrent(s))
	}
	return append(out, fmt.Sprint("error: ", s.Err()))
}

// describeCurrent describes what the last Scan of s gave.
func describeCurrent(s *Scanner) string {
	span := ""
	if s.sizeAt >= 0 {
		span = fmt.Sprintf("size %q", s.cur[s.sizeAt:s.sizeEnd])
	}
	return fmt.Sprintf("%s line %d offset %d text %q %s", describeRecord(s.Record(), true), s.Line(), s.Offset(), s.cur, span)
}

// scanAgrees checks the Scanner against the reference on data.
func scanAgrees(t *testing.T, data, sizes []byte, maxLine int) {
	t.Helper()
	want := scanAll(data, sizes, maxLine, true)
	got := scanAll(data, sizes, maxLine, false)
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Fatalf("input %q, read in pieces %v, lines of at most %d:\nrecord %d:\nfast      %s\nreference %s", clip(string(data)), sizes, maxLine, i, g, w)
		}
	}
}

// speedCorpus is lines in the usual form and near it, for the fast paths.
func speedCorpus(t testing.TB) []string {
	c := followCorpus(t)
	for _, tc := range readErrors {
		c = append(c, tc.in)
	}
	synth := string(speedLines(40))
	return append(c, synth,
		strings.ReplaceAll(synth, ", ", ","),
		strings.ReplaceAll(synth, `": `, `" : `),
		strings.ReplaceAll(synth, "\n", " \r\n"),
		strings.ReplaceAll(synth, `"name"`, `"meta": {"x": [1, 2]}, "name"`),
		strings.ReplaceAll(synth, `cells[`, `cells.Ünïcode[`),
		strings.ReplaceAll(synth, `Synthetic.`, `Synthetic\u002e`),
		strings.ReplaceAll(synth, `Synthetic.`, `Synthetic.a_rather_long_label_of_more_than_sixteen_bytes.`),
		strings.ReplaceAll(synth, `"f32"`, `"bf16"`),
		strings.ReplaceAll(synth, `"f32", "shape": [3, 192, 128]`, `"f64", "shape": [3, 192, 128]`),
		strings.ReplaceAll(synth, `"f32", "shape": [3, 192, 128]`, `"g32", "shape": [3, 192, 128]`),
		strings.ReplaceAll(synth, `"f32", "shape": [3, 192, 128]`, `"f3", "shape": [3, 192, 128]`),
		strings.ReplaceAll(synth, `"f32", "shape": [3, 192, 128]`, `"f32 ", "shape": [3, 192, 128]`),
		strings.ReplaceAll(synth, `[3, 192, `, `[3, 1920000000, `),
		strings.ReplaceAll(synth, `[3, 192, `, `[-3, 0192, `),
		strings.ReplaceAll(synth, `"reads": [`, `"reads": [-1, 1.5, `),
		strings.ReplaceAll(synth, `"writes"`, `"writes": [], "writes"`),
		strings.ReplaceAll(synth, `"path": "cells`, `"path": "cells[01]`),
		strings.ReplaceAll(synth, `{"buffer": 9, `, `{"view": 9, "of": 4, `),
		strings.ReplaceAll(synth, `{"op": "Synthetic.up", `, `{"op": "Synthetic.up", "launch": false, "phase": "forward", `),
		strings.ReplaceAll(synth, `"group": "cells[3]"`, `"group": "cells[3]", "role": "temp"`),
		strings.ReplaceAll(synth, `"name": "act"`, `"name": ""`),
		strings.ReplaceAll(synth, `"name": "x"`, "\"name\": \"x\x01\""),
		strings.ReplaceAll(synth, `{"result"`, `{"result": [1], "result"`),
		strings.ReplaceAll(synth, `]}`, `}}`),
		strings.ReplaceAll(synth, `]}`, `]]}`),
		strings.ReplaceAll(synth, `], "`, `}, "`),
		synth[:len(synth)-1],
		synth[:len(synth)-7],
	)
}

func TestScanFastAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, in := range speedCorpus(t) {
		data := []byte(in)
		scanAgrees(t, data, nil, 0)
		for range 8 {
			sizes := make([]byte, 1+rng.IntN(8))
			for i := range sizes {
				sizes[i] = byte(rng.IntN(256))
			}
			scanAgrees(t, data, sizes, 0)
			scanAgrees(t, data, sizes, 40+rng.IntN(100))
		}
		// One byte changed, anywhere.
		for range 50 {
			b := []byte(in)
			if len(b) == 0 {
				break
			}
			const subst = "{}[]\",: 0123456789-.eE\\xtruefalsenull\n\r\t\x00\x80\xff"
			b[rng.IntN(len(b))] = subst[rng.IntN(len(subst))]
			scanAgrees(t, b, nil, 0)
		}
	}
	// Lines at the limit of their length, and just past it.
	synth := speedLines(10)
	for _, line := range bytes.Split(synth, []byte("\n"))[1:4] {
		for d := -1; d <= 1; d++ {
			scanAgrees(t, synth, nil, len(line)+d)
		}
	}
	// Inputs longer than a buffer, so that lines cross its end.
	big := speedLines(3000)
	scanAgrees(t, big, nil, 0)
	scanAgrees(t, big, []byte{200, 13, 77}, 0)
}

func FuzzScanFast(f *testing.F) {
	for _, in := range speedCorpus(f) {
		// The first lines, for speed: the fuzzer varies them.
		if len(in) > 1500 {
			in = in[:strings.LastIndexByte(in[:1500], '\n')+1]
		}
		f.Add([]byte(in), []byte(nil), uint8(0))
		f.Add([]byte(in), []byte{1, 50, 7}, uint8(60))
	}
	f.Fuzz(func(t *testing.T, data, sizes []byte, maxLine uint8) {
		if len(data) > 4096 {
			return
		}
		scanAgrees(t, data, sizes, int(maxLine))
	})
}

// TestDigits checks the SWAR digits against strconv, for each length and
// whatever follows the digits.
func TestDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200_000 {
		var w [8]byte
		for i := range w {
			w[i] = byte(rng.IntN(256))
			if rng.IntN(3) > 0 {
				w[i] = '0' + byte(rng.IntN(10))
			}
		}
		x := uint64(0)
		for i := range w {
			x |= uint64(w[i]) << (8 * i)
		}
		d := 0
		for d < 8 && isDigit(w[d]) {
			d++
		}
		m := nonDigits(x)
		got := 8
		if m != 0 {
			got = int(trailingZeroBytes(m))
		}
		if got != d {
			t.Fatalf("%q: nonDigits finds %d digits, want %d", w, got, d)
		}
		if d >= 1 && d <= 7 {
			want, _ := strconv.ParseUint(string(w[:d]), 10, 64)
			if v := digitsOf(x, d); v != want {
				t.Fatalf("%q: digitsOf = %d, want %d", w[:d], v, want)
			}
		}
	}
}

func trailingZeroBytes(m uint64) uint {
	n := uint(0)
	for m&0xff == 0 {
		m >>= 8
		n++
	}
	return n
}

// TestIntAt checks intAt and intsAt against fastInt and fastInts, the
// bytes past the line's end garbage.
func TestIntAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const alphabet = "0123456789-, ]}.eE\n"
	for range 200_000 {
		b := make([]byte, 1+rng.IntN(30), 48)
		for i := range b[:cap(b)] {
			b[:cap(b)][i] = alphabet[rng.IntN(len(alphabet))]
		}
		b[0] = '['
		signed := rng.IntN(2) == 0
		i := rng.IntN(len(b))
		v, end, ok := intAt(b, len(b), i, signed)
		fv, fend, fok := fastInt(b, i, signed)
		after := byte(0)
		if ok && end < len(b) {
			after = b[end]
		}
		if ok && after != '.' && after != 'e' && after != 'E' && (!fok || v != fv || end != fend) {
			t.Fatalf("intAt(%q, %d) = %d, %d, %v; fastInt = %d, %d, %v", b, i, v, end, ok, fv, fend, fok)
		}
		dst, end, ok := intsAt(b, len(b), 0, nil, signed)
		fdst, fend, fok := fastInts(b, 0, nil, signed)
		if ok && (!fok || fmt.Sprint(dst) != fmt.Sprint(fdst) || end != fend) {
			t.Fatalf("intsAt(%q) = %v, %d, %v; fastInts = %v, %d, %v", b, dst, end, ok, fdst, fend, fok)
		}
	}
}

// TestInterner checks that the interner gives back each string's text,
// whatever shares its slot, and keeps what it holds as it grows.
func TestInterner(t *testing.T) {
	var in interner
	var made [][2]string // each string given, and its text
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 100_000 {
		var s string
		switch rng.IntN(3) {
		case 0:
			s = fmt.Sprintf("cells[%d]", rng.IntN(20_000))
		case 1:
			s = strings.Repeat("ab", rng.IntN(40))
		default:
			s = fmt.Sprint("Synthetic.", i%50)
		}
		b := append([]byte(s), "\"trailing"...)[:len(s)]
		got := in.str(b)
		if len(s) > 0 && len(s) <= 16 && i%2 == 0 {
			w0, w1 := textWords(b)
			got = in.lookup(b, w0, w1)
		}
		if got != s {
			t.Fatalf("interned %q as %q", s, got)
		}
		made = append(made, [2]string{got, s})
	}
	// The strings are made many to a block: none changes as more are made.
	for _, m := range made {
		if m[0] != m[1] {
			t.Fatalf("interned %q, which became %q", m[1], m[0])
		}
	}
	// A string asked for again right after is the one given before, from
	// the near slots or behind them, whatever was asked for between.
	for i := range 1000 {
		s := fmt.Sprintf("cells[%d]", i)
		first := in.str([]byte(s))
		in.str([]byte(fmt.Sprint("Synthetic.", i%50)))
		if again := in.str([]byte(s)); unsafe.StringData(again) != unsafe.StringData(first) {
			t.Fatalf("%q made again, not shared", s)
		}
	}
}

func BenchmarkScanSpeed(b *testing.B) { benchScan(b, speedLines(100_000)) }

// benchScan scans data whole, once an iteration.
func benchScan(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s := NewScanner(bytes.NewReader(data), "s.jsonl")
		for s.Scan() {
		}
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
	}
}

// BenchmarkScanFile scans the file $SCAN_SPEED_FILE, for measuring under
// a simulator (valgrind's cachegrind) without the cost of making the input.
func BenchmarkScanFile(b *testing.B) {
	name := os.Getenv("SCAN_SPEED_FILE")
	if name == "" {
		b.Skip("no SCAN_SPEED_FILE")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	benchScan(b, data)
}

// TestParseFastPastEnd checks parseFast on lines whose buffer goes on past
// their end, with bytes that would continue them: it must not read them.
func TestParseFastPastEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tails := []string{`"`, `0`, `123456789`, `, "name": "x"}`, `]}`, `}`, ` `, `"}`, `": 1}`, "\n", `uffer": 1, "bytes": 8}`}
	for _, in := range speedCorpus(t) {
		for _, line := range bytes.Split([]byte(in), []byte("\n")) {
			for cut := max(0, len(line)-20); cut <= len(line); cut++ {
				tail := tails[rng.IntN(len(tails))] + tails[rng.IntN(len(tails))] + "                "
				b := append(append([]byte(nil), line...), tail...)
				fastAgrees(t, b[:cut])
			}
		}
	}
}

// TestScanFastMutants checks the Scanner against the reference on inputs
// mutated at random, a few thousand each run: what FuzzScanFast does, for
// the runs that do not fuzz.
func TestScanFastMutants(t *testing.T) {
	corpus := speedCorpus(t)
	rng := rand.New(rand.NewPCG(13, 14))
	const alphabet = "{}[]\",: 0123456789-.eE\\xtruefalsenullu\n\r\t\x00\x80\xff\xc3\xa9abcdefghijklmnopqrstuvwxyz_%/"
	n := 5000
	if testing.Short() {
		n = 500
	}
	for range n {
		in := []byte(corpus[rng.IntN(len(corpus))])
		if len(in) > 3000 {
			s := rng.IntN(len(in) - 2000)
			in = in[s : s+2000]
		}
		for range 1 + rng.IntN(6) {
			if len(in) == 0 {
				break
			}
			p := rng.IntN(len(in))
			switch rng.IntN(4) {
			case 0: // a byte changed
				in[p] = alphabet[rng.IntN(len(alphabet))]
			case 1: // a byte removed
				in = append(in[:p], in[p+1:]...)
			case 2: // a byte added
				in = append(in[:p], append([]byte{alphabet[rng.IntN(len(alphabet))]}, in[p:]...)...)
			case 3: // a piece copied
				q := rng.IntN(len(in))
				in = append(in[:p], append(append([]byte{}, in[q:min(len(in), q+rng.IntN(40))]...), in[p:]...)...)
			}
		}
		var sizes []byte
		if rng.IntN(2) == 0 {
			sizes = []byte{byte(rng.IntN(256)), byte(rng.IntN(256))}
		}
		maxLine := 0
		if rng.IntN(4) == 0 {
			maxLine = 30 + rng.IntN(200)
		}
		scanAgrees(t, in, sizes, maxLine)
	}
}
