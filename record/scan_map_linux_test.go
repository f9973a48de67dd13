package record

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// A file the Scanner maps, at its first Follow, is read as the same bytes
// given by a reader are: the same records, lines, offsets, sizes and
// errors, by Scan and by Follow, wherever the Scanner was when it mapped
// it; its pages are given back as it is read; and a file cut short while
// it is read is an error, not a crash.

// mapAll makes the Scanner map files of any size for the test.
func mapAll(t *testing.T) {
	old := mapFrom
	mapFrom = 0
	t.Cleanup(func() { mapFrom = old })
}

// writeTemp writes data to a file of the test's and returns its path.
func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openScanner opens path at offset and returns a Scanner reading it, named
// name in its messages.
func openScanner(t *testing.T, path string, offset int64, name string) *Scanner {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Seek(offset, 0); err != nil {
		t.Fatal(err)
	}
	return NewScanner(f, name)
}

// mapNow makes s map its file, as its first Follow does.
func mapNow(t *testing.T, s *Scanner) {
	t.Helper()
	if s.mapped != nil {
		t.Fatal("mapped before any Follow")
	}
	if k, sizes := s.Follow(&Templates{}, 0, nil); k != 0 || len(sizes) != 0 {
		t.Fatalf("Follow with no lines read %d lines", k)
	}
	if s.mapped == nil {
		t.Fatal("not mapped by a Follow")
	}
}

// mappedScanner is openScanner's Scanner, made to map its file.
func mappedScanner(t *testing.T, path string, offset int64, name string) *Scanner {
	t.Helper()
	s := openScanner(t, path, offset, name)
	mapNow(t, s)
	return s
}

// TestMappedScanAgrees reads each input of the corpus through a reader to
// its end, and mapped after 0, 1 and 5 records.
func TestMappedScanAgrees(t *testing.T) {
	mapAll(t)
	for i, in := range speedCorpus(t) {
		want := scanAll([]byte(in), nil, 0, false)
		path := writeTemp(t, []byte(in))
		for _, k := range []int{0, 1, 5} {
			s := openScanner(t, path, 0, "f.jsonl")
			var got []string
			for range k {
				if !s.Scan() {
					break
				}
				got = append(got, describeCurrent(s))
			}
			s.Follow(&Templates{}, 0, nil)
			if !s.done && s.Offset() < int64(len(in)) && s.mapped == nil {
				t.Fatalf("input %d: not mapped after %d records", i, k)
			}
			got = append(got, describeScan(s)...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				for r := range min(len(got), len(want)) {
					if got[r] != want[r] {
						t.Fatalf("input %d, mapped after %d records: record %d:\nmapped %s\nread   %s", i, k, r, got[r], want[r])
					}
				}
				t.Fatalf("input %d, mapped after %d records: %d results mapped, %d read", i, k, len(got), len(want))
			}
			if s.mapped != nil {
				t.Fatalf("input %d: still mapped after the end", i)
			}
		}
	}
}

func TestMappedFollowAgrees(t *testing.T) {
	mapAll(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, a := range followCorpus(t) {
		tmpl, _ := keepAll([]byte(a))
		for scale := 1; scale <= 3; scale++ {
			b := pointOf(a, scale)
			for k := range 30 {
				if k > 0 {
					b = mutate(rng, pointOf(a, scale))
				}
				want, wantErr := readFollowing(tmpl, []byte(b))
				path := writeTemp(t, []byte(b))
				// Mapped before the header, and at the first Follow,
				// after it.
				for _, s := range []*Scanner{mappedScanner(t, path, 0, "b.jsonl"), openScanner(t, path, 0, "b.jsonl")} {
					got, gotErr := followAll(tmpl, s)
					if g, w := describeScanned(got, gotErr), describeScanned(want, wantErr); g != w {
						t.Fatalf("b %q:\nmapped %s\nread   %s", clip(b), g, w)
					}
				}
			}
		}
	}
}

// TestMappedFromOffset reads a file from where its offset is, not a page's
// start, as a reader would.
func TestMappedFromOffset(t *testing.T) {
	mapAll(t)
	data := speedLines(400)
	for _, skip := range []int{1, 4095, 4096, 5000, 3*4096 + 17} {
		junk := strings.Repeat("not a record\n", skip/13+1)[:skip]
		s := mappedScanner(t, writeTemp(t, append([]byte(junk), data...)), int64(skip), "f.jsonl")
		got, want := describeScan(s), scanAll(data, nil, 0, false)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("from byte %d: the records differ from the file's without the %d bytes before", skip, skip)
		}
	}
}

// TestMappedGivesPagesBack checks, by the mappings' resident sizes as the
// kernel reports them, that the pages behind the Scanners are given back:
// one Scanner's every maxRelease bytes, and 12 Scanners' within the budget
// they share.
func TestMappedGivesPagesBack(t *testing.T) {
	mapAll(t)
	data := speedLines(200_000) // about 20 MB
	if len(data) < 4*maxRelease {
		t.Fatalf("%d bytes: too few to see pages given back", len(data))
	}
	path := writeTemp(t, data)
	open := mapsOpen.Load()
	for _, n := range []int{1, 12} {
		var ss []*Scanner
		for range n {
			ss = append(ss, mappedScanner(t, path, 0, "f.jsonl"))
		}
		total := 0
		for _, s := range ss {
			for s.Scan() && s.Offset() < int64(len(data))*3/4 {
			}
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
			total += residentKiB(t, s.mapped.data)
		}
		// Each may hold a step not yet given back, and what the kernel
		// maps beyond it at a fault: a folio of the page cache, up to 2
		// MiB.
		limit := n * (releaseStep() + 2<<20) >> 10
		if n > 1 {
			limit = (mappedBudget + n*2<<20) >> 10
		}
		if total > limit {
			t.Errorf("%d Scanners: %d KiB of their mappings resident after %d MB read each: want at most %d KiB", n, total, ss[0].Offset()>>20, limit)
		}
		if total == 0 {
			t.Errorf("nothing of the mappings resident while they are read: the measure is wrong")
		}
		for _, s := range ss {
			s.unmap()
		}
	}
	// Past maxMaps, a Scanner reads.
	var ss []*Scanner
	for range maxMaps - mapsOpen.Load() {
		ss = append(ss, mappedScanner(t, path, 0, "f.jsonl"))
	}
	past := openScanner(t, path, 0, "f.jsonl")
	past.Follow(&Templates{}, 0, nil)
	if past.mapped != nil {
		t.Errorf("a Scanner mapped its file with %d files mapped", maxMaps)
	}
	for _, s := range ss {
		s.unmap()
	}
	if n := mapsOpen.Load(); n != open {
		t.Errorf("%d mappings counted open after the test's were unmapped, %d before", n, open)
	}
}

// residentKiB returns the resident size of the mapping of data, from
// /proc/self/smaps.
func residentKiB(t *testing.T, data []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	head := regexp.MustCompile(`^([0-9a-f]+)-[0-9a-f]+ `)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := head.FindStringSubmatch(line); m != nil {
			at, _ := strconv.ParseUint(m[1], 16, 64)
			in = uintptr(at) == start
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); in && ok {
			kib, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatalf("smaps: %q", line)
			}
			return kib
		}
	}
	t.Fatalf("the mapping at %#x is not in /proc/self/smaps", start)
	return 0
}

// TestMappedCutShort cuts a file short while Scan and Follow read it:
// each gives an error at the line it was reading.
func TestMappedCutShort(t *testing.T) {
	mapAll(t)
	data := speedLines(40_000) // about 4 MB
	want := regexp.MustCompile(`^f\.jsonl:[0-9]+: the file was cut short while it was read$`)
	for _, follow := range []bool{false, true} {
		path := writeTemp(t, data)
		s := mappedScanner(t, path, 0, "f.jsonl")
		for range 10 {
			if !s.Scan() {
				t.Fatal(s.Err())
			}
		}
		if err := os.Truncate(path, 4096); err != nil {
			t.Fatal(err)
		}
		if follow {
			tmpl, _ := keepAll(data)
			from := s.Line() - 1
			if k, sizes := s.Follow(tmpl, from, nil); k != from || len(sizes) != 0 {
				t.Errorf("Follow over the cut: read %d lines and %d sizes, want none", k-from, len(sizes))
			}
		}
		for s.Scan() {
		}
		if err := s.Err(); err == nil || !want.MatchString(err.Error()) {
			t.Errorf("follow %v: error %v, want %s", follow, err, want)
		}
		if s.mapped != nil {
			t.Errorf("follow %v: still mapped after the error", follow)
		}
	}
}

// TestNotMapped: a pipe and a small file are read, not mapped, and a
// large file only from the first Follow.
func TestNotMapped(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Close()
	if NewScanner(r, "pipe").source != nil {
		t.Error("a pipe is to be mapped")
	}
	small := writeTemp(t, []byte(hdr))
	f, err := os.Open(small)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if NewScanner(f, "small").source != nil {
		t.Errorf("a file of %d bytes is to be mapped: mapFrom is %d", len(hdr), mapFrom)
	}
	big := writeTemp(t, speedLines(20_000))
	if s := openScanner(t, big, 0, "big"); s.source == nil {
		t.Errorf("a file of %d MB is not to be mapped", len(speedLines(20_000))>>20)
	} else if s.mapped != nil {
		t.Error("a file is mapped before any Follow")
	}
}

// describeScanned writes what a reader gave, its sizes by value.
func describeScanned(recs []scanned, err error) string {
	var b strings.Builder
	for _, r := range recs {
		fmt.Fprintf(&b, "%s followed %v size %s kind %v line %d\n", r.full, r.followed, r.size, r.kind, r.line)
	}
	fmt.Fprint(&b, "error: ", err)
	return b.String()
}
