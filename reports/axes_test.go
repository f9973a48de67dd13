package reports

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/poly"
)

func TestNewAxis(t *testing.T) {
	for _, c := range []struct {
		lo, hi int64
		bytes  bool
		want   string // ticks' labels, then the unit
	}{
		{1, 46, false, "0 10 20 30 40 50"},
		{0, 164454, true, "0 50 100 150 200 KiB"},
		{0, 17000000, true, "0 5 10 15 20 MiB"},
		{0, 7, false, "0 2 4 6 8"},
		{0, 600, true, "0 100 200 300 400 500 600 bytes"},
		{0, 0, false, "0 0.2 0.4 0.6 0.8 1"},
		{-30, 30, false, "-30 -20 -10 0 10 20 30"},
		{0, 1500, true, "0 0.5 1 1.5 KiB"},
	} {
		a := newAxis(poly.Int(c.lo), poly.Int(c.hi), c.bytes)
		var labels []string
		for _, tk := range a.ticks {
			labels = append(labels, tk.label())
		}
		got := strings.Join(labels, " ")
		if a.unit != "" {
			got += " " + a.unit
		}
		if got != c.want {
			t.Errorf("newAxis(%d, %d, %v) = %q, want %q", c.lo, c.hi, c.bytes, got, c.want)
		}
		if a.hi.Cmp(poly.Int(c.hi)) < 0 || a.lo.Cmp(poly.Int(min(c.lo, 0))) > 0 {
			t.Errorf("newAxis(%d, %d): [%v, %v] does not cover the data", c.lo, c.hi, a.lo, a.hi)
		}
	}
}

func TestNewLogAxis(t *testing.T) {
	for _, c := range []struct {
		lo, hi int64
		bytes  bool
		want   string
	}{
		{1, 4096, false, "1 4 16 64 256 1 024 4 096"},
		{1, 100, false, "1 4 16 64"},
		{3000, 20000000000, true, "32 KiB 1 MiB 32 MiB 1 GiB 32 GiB"},
		{1000, 1100000, true, "1 KiB 4 KiB 16 KiB 64 KiB 256 KiB 1 MiB"},
		{1, 20000000, true, "1 byte 32 bytes 1 KiB 32 KiB 1 MiB 32 MiB"},
	} {
		a := newLogAxis(poly.Int(c.lo), poly.Int(c.hi), c.bytes)
		var labels []string
		for _, tk := range a.ticks {
			labels = append(labels, strings.ReplaceAll(tk.label(), "\u2009", " "))
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("newLogAxis(%d, %d, %v) = %q, want %q", c.lo, c.hi, c.bytes, got, c.want)
		}
		if a.lo.Cmp(poly.Int(c.lo)) > 0 || a.hi.Cmp(poly.Int(c.hi)) < 0 {
			t.Errorf("newLogAxis(%d, %d): [%v, %v] does not cover the data", c.lo, c.hi, a.lo, a.hi)
		}
		if f := a.frac(a.lo); f != 0 {
			t.Errorf("newLogAxis(%d, %d): its low end is at %v", c.lo, c.hi, f)
		}
		if f := a.frac(a.hi); f < 0.999999 || f > 1.000001 {
			t.Errorf("newLogAxis(%d, %d): its high end is at %v", c.lo, c.hi, f)
		}
	}
}

// TestFracInt checks that the integer path of frac gives the float the
// exact fraction gives, and declines what it cannot do exactly.
func TestFracInt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func() int64 {
		switch rng.IntN(4) {
		case 0:
			return rng.Int64N(1000)
		case 1:
			return rng.Int64N(1<<53) - 1<<52
		case 2:
			return 1<<53 - rng.Int64N(4) // at the edge of exact floats
		}
		return rng.Int64() - rng.Int64() // and far beyond, overflowing too
	}
	taken := 0
	for range 100_000 {
		v, lo, hi := poly.Int(pick()), poly.Int(pick()), poly.Int(pick())
		f, ok := fracInt(v, lo, hi)
		if !ok {
			continue
		}
		taken++
		if want := v.Sub(lo).Quo(hi.Sub(lo)).Float64(); f != want {
			t.Fatalf("fracInt(%s, %s, %s) = %v, want %v", v, lo, hi, f, want)
		}
	}
	if taken < 10_000 {
		t.Errorf("the integer path took %d of 100 000", taken)
	}
	for _, c := range [][3]int64{{0, 5, 5}, {1, 7, 3}, {math.MaxInt64, math.MinInt64, 0}, {0, math.MinInt64, math.MaxInt64}, {1 << 53, 0, 1 << 54}} {
		if f, ok := fracInt(poly.Int(c[0]), poly.Int(c[1]), poly.Int(c[2])); ok {
			t.Errorf("fracInt(%d, %d, %d) = %v: should decline", c[0], c[1], c[2], f)
		}
	}
	if _, ok := fracInt(poly.Frac(1, 2), poly.Int(0), poly.Int(1)); ok {
		t.Error("fracInt took a fraction")
	}
}

// A linear x axis ends with its data, not at the round value past it, and
// its ticks' numbers are grouped as the prose groups them.
func TestAxisEndsWithData(t *testing.T) {
	f := &doc.Figure{Series: []doc.Series{{Points: []doc.XY{{X: poly.Int(1), Y: poly.Int(1)}, {X: poly.Int(4100), Y: poly.Int(9)}}}}}
	p := layout(f)
	if !p.x.hi.Equal(poly.Int(4100)) {
		t.Errorf("the x axis ends at %v, want 4100", p.x.hi)
	}
	last := p.x.ticks[len(p.x.ticks)-1]
	if want := "4" + doc.ThinSpace + "000"; last.num != want {
		t.Errorf("the last tick is %q, want %q", last.num, want)
	}
	if got := newAxis(poly.Int(0), poly.Int(4000), false).endAt(poly.Int(4000)); !got.hi.Equal(poly.Int(4000)) || len(got.ticks) != 5 {
		t.Errorf("an axis ending on a tick: hi %v, %d ticks", got.hi, len(got.ticks))
	}
}
