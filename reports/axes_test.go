package reports

import (
	"strings"
	"testing"

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
