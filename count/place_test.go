package count

import (
	"cmp"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// naivePlace places as Place's doc says, the slow way: every placed buffer
// whose life overlaps is checked at every candidate offset.
func naivePlace(rec *record.Recording, lives []Life) []poly.Rat {
	offsets := make([]poly.Rat, rec.Buffers.Len())
	var order []int
	for i, l := range lives {
		if b := rec.Buffers.At(i); l.First != 0 && b.Bytes.Sign() > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return rec.Buffers.Bytes(order[a]).Cmp(rec.Buffers.Bytes(order[b])) > 0 })
	overlap := func(a, b Life) bool { return a.First <= b.Last && b.First <= a.Last }
	var placed []int
	for _, i := range order {
		size := rec.Buffers.Bytes(i)
		candidates := []poly.Rat{{}}
		for _, j := range placed {
			end := offsets[j].Add(rec.Buffers.Bytes(j))
			aligned := end.Quo(poly.Int(Align))
			n := new(big.Int).Quo(aligned.Num(), aligned.Den())
			if !aligned.IsInt() {
				n.Add(n, big.NewInt(1))
			}
			candidates = append(candidates, poly.FromBigInt(n).Mul(poly.Int(Align)))
		}
		sort.Slice(candidates, func(a, b int) bool { return candidates[a].Cmp(candidates[b]) < 0 })
		for _, off := range candidates {
			fits := true
			for _, j := range placed {
				if overlap(lives[i], lives[j]) && off.Cmp(offsets[j].Add(rec.Buffers.Bytes(j))) < 0 && offsets[j].Cmp(off.Add(size)) < 0 {
					fits = false
					break
				}
			}
			if fits {
				offsets[i] = off
				break
			}
		}
		placed = append(placed, i)
	}
	return offsets
}

func TestPlaceAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		rec := randomRecording(t, rng, 1+rng.IntN(60))
		lives := Lifetimes(rec)
		p := Place(rec, lives)
		want := naivePlace(rec, lives)
		var size poly.Rat
		for i := range rec.Buffers.Len() {
			if !p.Offsets[i].Equal(want[i]) && !(p.Offsets[i].IsZero() && want[i].IsZero()) {
				t.Fatalf("trial %d: buffer %d at %s, want %s", trial, rec.Buffers.ID(i), p.Offsets[i], want[i])
			}
			if p.Placed[i] {
				if end := want[i].Add(rec.Buffers.Bytes(i)); end.Cmp(size) > 0 {
					size = end
				}
			}
		}
		if !p.Size.Equal(size) && !(p.Size.IsZero() && size.IsZero()) {
			t.Fatalf("trial %d: size %s, want %s", trial, p.Size, size)
		}
		checkPlacement(t, rec, lives, p)
	}
}

// checkPlacement checks that no two buffers live together share a byte and
// that every offset is aligned.
func checkPlacement(t *testing.T, rec *record.Recording, lives []Life, p *Placement) {
	t.Helper()
	for i := range rec.Buffers.Len() {
		if !p.Placed[i] {
			continue
		}
		if q := p.Offsets[i].Quo(poly.Int(Align)); !q.IsInt() {
			t.Fatalf("buffer %d at %s, not a multiple of %d", rec.Buffers.ID(i), p.Offsets[i], Align)
		}
		for j := range i {
			a, b := lives[i], lives[j]
			if !p.Placed[j] || a.Last < b.First || b.Last < a.First {
				continue
			}
			endI, endJ := p.Offsets[i].Add(rec.Buffers.Bytes(i)), p.Offsets[j].Add(rec.Buffers.Bytes(j))
			if p.Offsets[i].Cmp(endJ) < 0 && p.Offsets[j].Cmp(endI) < 0 {
				t.Fatalf("buffers %d and %d overlap", rec.Buffers.ID(i), rec.Buffers.ID(j))
			}
		}
	}
}

// TestPlaceByHand checks a placement worked out by hand: the largest first,
// each at the lowest aligned offset beside those live with it.
func TestPlaceByHand(t *testing.T) {
	in := hdr + `{"buffer": 1, "bytes": 100}
{"buffer": 2, "bytes": 200}
{"buffer": 3, "bytes": 64}
{"buffer": 4, "bytes": "1/2"}
{"buffer": 5, "bytes": 200}
{"op": "a", "writes": [1]}
{"op": "b", "reads": [1], "writes": [2]}
{"op": "c", "reads": [2], "writes": [3]}
{"op": "d", "reads": [3], "writes": [4, 5]}
{"result": [4]}
`
	rec, err := record.Read(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := Place(rec, Lifetimes(rec))
	// 2 (200, ops 2-3) at 0; 5 (200, op 4) at 0; 1 (100, ops 1-2) beside 2
	// at 256; 3 (64, ops 3-4) beside 2 and 5 at 256; 4 (1/2, op 4) beside
	// 3 and 5 at 320, ending at 641/2; the largest end is 1's, 356.
	want := "[256 0 256 320 0] 356"
	if got := fmt.Sprint(p.Offsets, " ", p.Size); got != want {
		t.Errorf("placed %s, want %s", got, want)
	}
}

func TestPlaceHugeBuffers(t *testing.T) {
	in := hdr + `{"buffer": 1, "dtype": "f64", "shape": [9223372036854775807, 3]}
{"buffer": 2, "bytes": 1}
{"op": "a", "writes": [1, 2]}
{"result": [1, 2]}
`
	rec, err := record.Read(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := At(rec)
	want := "221360928884514619393" // 9223372036854775807·3·8 rounded up to 64, plus 1
	if c.Placed.String() != want {
		t.Errorf("placed %s, want %s", c.Placed, want)
	}
}

// TestPlaceWaysAgree checks Place's two ways, in int64 units and exactly,
// against each other on random recordings, so that the exact way, which
// only sizes beyond int64 take, is checked as widely as the other.
func TestPlaceWaysAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	placed := 0
	for trial := range 300 {
		rec := randomRecording(t, rng, 1+rng.IntN(80))
		lives := Lifetimes(rec)
		inUnits := Place(rec, lives)
		exactly := &Placement{Offsets: make([]poly.Rat, rec.Buffers.Len()), Placed: make([]bool, rec.Buffers.Len())}
		pl := newPlacer(rec, lives, exactly)
		if pl == nil {
			continue
		}
		placed++
		pl.exactly(exactly)
		for i := range rec.Buffers.Len() {
			if !inUnits.Offsets[i].Equal(exactly.Offsets[i]) {
				t.Fatalf("trial %d: buffer %d at %s in units, %s exactly", trial, rec.Buffers.ID(i), inUnits.Offsets[i], exactly.Offsets[i])
			}
		}
		if !inUnits.Size.Equal(exactly.Size) {
			t.Fatalf("trial %d: size %s in units, %s exactly", trial, inUnits.Size, exactly.Size)
		}
	}
	if placed < 200 {
		t.Fatalf("only %d of 300 random recordings had buffers to place", placed)
	}
}

// TestSortSpans checks every way spanSorter sorts: as words while the ends
// fit in 32 bits (up to the widest), then as offsets and indices while
// those fit (up to the widest), few of them as integers and many by radix,
// and by a function beyond.
func TestSortSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var sorter spanSorter
	for trial := range 500 {
		var top int64
		switch trial % 5 {
		case 0:
			top = int64(1 + rng.IntN(1000))
		case 1:
			top = 1<<32 - 1 - int64(rng.IntN(1000)) // the widest ends as words
		case 2:
			top = 1<<32 + int64(rng.IntN(1<<20)) // offsets and indices
		case 3:
			top = 1<<52 - 1 - int64(rng.IntN(1000)) // the widest offsets with up to 2^12 indices
		case 4:
			top = 1<<62 + int64(rng.IntN(1<<20)) // too wide for either
		}
		n := rng.IntN(50)
		if trial%2 == 1 {
			n = radixFrom + rng.IntN(2000)
		}
		if rng.IntN(4) == 0 {
			// Many equal offsets, as buffers placed at the same offset
			// at different times.
			top = min(top, int64(1+rng.IntN(8)))
		}
		spans := make([]span, n)
		for k := range spans {
			off := rng.Int64N(top)
			spans[k] = span{off, off + 1 + rng.Int64N(top-off)}
		}
		want := slices.Clone(spans)
		sorter.sort(spans, top)
		if !slices.IsSortedFunc(spans, func(a, b span) int { return cmp.Compare(a.off, b.off) }) {
			t.Fatalf("trial %d (top %d): not sorted by offset: %v", trial, top, spans)
		}
		order := func(a, b span) int { return cmp.Or(cmp.Compare(a.off, b.off), cmp.Compare(a.end, b.end)) }
		slices.SortFunc(want, order)
		got := slices.Clone(spans)
		slices.SortFunc(got, order)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (top %d): spans %v, want %v", trial, top, got, want)
		}
	}
}

// TestPlaceByOffset checks the placement that goes through every placed
// buffer by offset (byOffset) against the naive one, taken up from the
// first buffer beside another and left and taken up again as the lives
// overlap more or less, and on a training step's recording, whose stored
// activations mostly live together, against the placement that never
// takes it up.
func TestPlaceByOffset(t *testing.T) {
	defer func(from, after, misses int) {
		denseFrom, denseAfter, denseMisses = from, after, misses
	}(denseFrom, denseAfter, denseMisses)
	rng := rand.New(rand.NewPCG(9, 10))
	taken := 0
	for trial := range 300 {
		denseFrom, denseAfter, denseMisses = 1, 1+rng.IntN(2), 1+rng.IntN(3)
		rec := randomRecording(t, rng, 1+rng.IntN(120))
		lives := Lifetimes(rec)
		p := &Placement{Offsets: make([]poly.Rat, rec.Buffers.Len()), Placed: make([]bool, rec.Buffers.Len())}
		pl := newPlacer(rec, lives, p)
		if pl == nil || !pl.inUnits(p) {
			continue
		}
		if pl.byOff > 0 {
			taken++
		}
		want := naivePlace(rec, lives)
		for i := range rec.Buffers.Len() {
			if p.Placed[i] && !p.Offsets[i].Equal(want[i]) {
				t.Fatalf("trial %d: buffer %d at %s, want %s", trial, rec.Buffers.ID(i), p.Offsets[i], want[i])
			}
		}
		checkPlacement(t, rec, lives, p)
	}
	if taken < 100 {
		t.Fatalf("only %d of 300 random recordings were placed by offset in part", taken)
	}
	rec := courseGPTStep(t, 12)
	lives := Lifetimes(rec)
	place := func(from int) (*Placement, int) {
		denseFrom = from
		p := &Placement{Offsets: make([]poly.Rat, rec.Buffers.Len()), Placed: make([]bool, rec.Buffers.Len())}
		pl := newPlacer(rec, lives, p)
		if pl == nil || !pl.inUnits(p) {
			t.Fatal("the step has nothing to place in units")
		}
		return p, pl.byOff
	}
	denseAfter, denseMisses = 8, 16
	byOff, n := place(64)
	tree, none := place(1 << 30)
	if n < len(byOff.Offsets)/4 || none != 0 {
		t.Fatalf("%d of %d buffers placed by offset, %d with it never taken up", n, len(byOff.Offsets), none)
	}
	if !slices.EqualFunc(byOff.Offsets, tree.Offsets, poly.Rat.Equal) || !byOff.Size.Equal(tree.Size) {
		t.Fatalf("the step placed by offset (size %s) and by the tree (size %s) differ", byOff.Size, tree.Size)
	}
	checkPlacement(t, rec, lives, byOff)

	// A forward pass, whose lives overlap little, leaves it soon after
	// taking it up, and pays little for it.
	syn, err := programs.Lookup("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = syn.Record(map[string]int64{"B": 2, "T": 16}, map[string]int64{"N": 3000}); err != nil {
		t.Fatal(err)
	}
	lives = Lifetimes(rec)
	denseAfter, denseMisses = 1, 4
	fwd, n := place(1)
	if n > rec.Buffers.Len()/20 {
		t.Errorf("%d of the forward pass's %d buffers placed by offset", n, rec.Buffers.Len())
	}
	checkPlacement(t, rec, lives, fwd)
}

// TestBySize checks the order Place places buffers in against a stable sort
// by size, largest first: sizes with many ties, and with a size that is no
// int64 integer (a fraction, a big number), which takes the exact way.
func TestBySize(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	huge := poly.FromBig(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 80)))
	for trial := range 200 {
		n := 1 + r.IntN(300)
		if trial%5 == 0 {
			n = 2000 + r.IntN(3000)
		}
		// A few sizes, dealt by counting, or many, sorted (dealBySize gives
		// up past max(64, n/16) of them).
		few := 1 + r.IntN(6)
		if trial%2 == 1 {
			few = 1 << 30
		}
		bufs := make([]record.Buffer, n)
		var items []int
		for i := range bufs {
			bufs[i].Bytes = poly.Int(int64(r.IntN(min(few, 1<<20))) << r.IntN(min(few, 40)))
			if r.IntN(3) > 0 {
				items = append(items, i)
			}
		}
		switch trial % 4 {
		case 1:
			bufs[r.IntN(n)].Bytes = poly.Frac(7, 2)
		case 2:
			bufs[r.IntN(n)].Bytes = huge
		}
		rec := &record.Recording{Buffers: record.BuffersOf(bufs)}
		want := slices.Clone(items)
		slices.SortStableFunc(want, func(a, b int) int { return rec.Buffers.Bytes(b).Cmp(rec.Buffers.Bytes(a)) })
		if got := bySize(rec, items); !slices.Equal(got, want) {
			t.Fatalf("trial %d: bySize = %v, want %v", trial, got, want)
		}
	}
}

// TestByOffsetFirst checks what a query of the spans kept by offset finds
// against the definitions: the lowest offset where need units overlap no
// span whose life overlaps life's, and how many such spans there are.
func TestByOffsetFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		b := &byOffset{}
		for range r.IntN(60) {
			off := int64(r.IntN(200))
			first := 1 + r.IntN(50)
			b.add(placedSpan{off: off, end: off + 1 + int64(r.IntN(20)), first: first, last: first + r.IntN(30)})
		}
		first := 1 + r.IntN(60)
		life := Life{First: int32(first), Last: int32(first + r.IntN(30))}
		need := 1 + int64(r.IntN(25))
		off, beside := b.first(life, need)
		var spans []span
		for _, s := range b.spans {
			if s.first <= int(life.Last) && s.last >= int(life.First) {
				spans = append(spans, span{s.off, s.end})
			}
		}
		want := int64(0)
		for moved := true; moved; {
			moved = false
			for _, s := range spans {
				if want < s.end && s.off < want+need {
					want, moved = s.end, true
				}
			}
		}
		if off != want || beside != len(spans) {
			t.Fatalf("trial %d: first(%v, %d) = %d, %d beside; want %d, %d", trial, life, need, off, beside, want, len(spans))
		}
	}
}
