package main

import (
	"flag"

	"memsym/doc"
	"memsym/poly"
)

// unitsFlag is --units: how byte figures are written beside their exact
// value.
type unitsFlag struct{ u doc.Units }

func (f *unitsFlag) String() string { return f.u.String() }

func (f *unitsFlag) Set(s string) error {
	u, err := doc.ParseUnits(s)
	if err != nil {
		return err
	}
	f.u = u
	return nil
}

// addUnits registers --units on fs, binary units by default.
func addUnits(fs *flag.FlagSet) *doc.Units {
	f := &unitsFlag{doc.IEC}
	fs.Var(f, "units", "how byte figures are written beside their exact value: `iec` (33.1 GiB), si (35.5 GB) or bytes (the exact figure alone)")
	return &f.u
}

// approxCell writes x in u's units in parentheses, "(8 KiB)", for a
// table's column beside the exact figure; "" when the units add nothing.
func approxCell(x poly.Rat, u doc.Units) string {
	if a := u.Approx(x); a != "" {
		return "(" + a + ")"
	}
	return ""
}

// dropEmptyColumns removes the columns in which every cell is empty, and
// their letters from align.
func dropEmptyColumns(rows [][]string, align string) ([][]string, string) {
	keep := make([]bool, len(align))
	for _, row := range rows {
		for j, cell := range row {
			if cell != "" {
				keep[j] = true
			}
		}
	}
	out := make([][]string, len(rows))
	for i, row := range rows {
		for j, cell := range row {
			if keep[j] {
				out[i] = append(out[i], cell)
			}
		}
	}
	var a []byte
	for j := range align {
		if keep[j] {
			a = append(a, align[j])
		}
	}
	return out, string(a)
}
