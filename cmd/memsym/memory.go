package main

import (
	"fmt"
	"io"
	"strings"

	"memsym/count"
	"memsym/doc"
	"memsym/model"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "memory",
		short: "count a recording's memory at its point: the inputs, the peak and where, the calls' shares",
		run:   memoryCmd,
	})
}

const memoryUsage = `[--json] [--units iec|si|bytes] REC ("-" reads stdin)
       memsym memory --step [--compare] REC | --program NAME --dim B=16,T=256 [--const D=384] [--remat R] [--optimizer O] [--types T]

Counts what the recorded program needs in memory at the recording's point:
the parameters and inputs the caller holds, the peak of live bytes and the
operation where it is first reached, the outputs, what is needed (the inputs
and the peak), and a placement of every temp at an offset by its life.
Then the buffers live at the peak and the calls' table: each call path, a
fold's iterations together, with its share of the peak (what it made that is
live there) and its own peak (the most of what it made live while it runs).
Every number is exact; a fraction of a byte prints as its exact decimal
where it has one (2.5), else as a fraction (7/3). Beside each figure of a
KiB or more, its size in binary units (--units iec, the default: 33.1 GiB),
decimal units (--units si: 35.5 GB) or none (--units bytes).

With --json, one JSON object with the same counts: bytes and elements as
strings (they may be fractions or exceed 64 bits), ids, dimensions and
shapes as in the recording, keys in a fixed order.

With --step, a training step (docs/step.md): of a recording of one, or of a
bundled program (--program NAME --dim B=16,T=256 --const D=384), recorded
under --remat, --optimizer and --types. It prints the parameters, the
optimizer's states, the gradient, the batch, what the forward keeps for the
backward, each phase's peak and the step's, whose terms sum to it; with
--compare, the analytic estimates beside them.
`

func memoryCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("memory", memoryUsage, stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	stepFlags := registerMemoryStep(fs)
	units := addUnits(fs)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if done, err := stepFlags.run(stdout, files, *asJSON, *units); done {
		return err
	}
	switch {
	case len(files) == 0:
		return usagef("memory needs a recording file (\"-\" reads stdin)")
	case len(files) > 1:
		return usagef("memory counts one recording, given %d: %s", len(files), strings.Join(files, " "))
	}
	rec, err := record.ReadFile(files[0])
	if err != nil {
		return err
	}
	c := count.At(rec)
	if *asJSON {
		return writeJSON(stdout, model.Memory(rec, c))
	}
	_, err = io.WriteString(stdout, memoryText(rec, c, *units))
	return err
}

// memoryText writes the counts as `memsym memory` prints them.
func memoryText(rec *record.Recording, c *count.Counts, units doc.Units) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memsym memory: %s: %s, %s\n", memoryTitle(&rec.Header),
		doc.Plural(c.Ops, "operation", "operations"), doc.Plural(c.Launches, "launch", "launches"))
	line := func(what, format string, args ...any) {
		fmt.Fprintf(&b, "  %-11s %s\n", what, fmt.Sprintf(format, args...))
	}
	line("parameters", "%s%s", units.Bytes(c.Params), paramsDetail(c))
	line("inputs", "%s, the parameters among them", units.Bytes(c.Inputs))
	if c.PeakOp == 0 {
		line("peak", "0 bytes live: no operations")
	} else {
		line("peak", "%s live, at operation %d of %d, %s", units.Bytes(c.Peak), c.PeakOp, c.Ops, opWhere(rec.Ops.At(c.PeakOp-1)))
	}
	line("outputs", "%s", units.Bytes(c.Outputs))
	line("needs", "%s: the inputs and the peak", units.Bytes(c.Needs))
	line("placed", "%s beside the inputs: every buffer at an offset by its life, largest first, each offset a multiple of %d", units.Bytes(c.Placed), count.Align)
	if c.PeakOp > 0 {
		b.WriteString("\n")
		b.WriteString(liveAtPeakTable(rec, c, units))
	}
	if rows := callRows(c.Calls, units); len(rows) > 1 {
		b.WriteString("\n")
		b.WriteString(alignColumns(dropEmptyColumns(rows, "lrlrlr")))
	}
	return b.String()
}

// memoryTitle writes "`GPT.apply` at B = 2, T = 16 in f64".
func memoryTitle(h *record.Header) string {
	s := "the recording"
	if h.Entry != "" {
		s = record.Show(h.Entry)
	}
	if len(h.Dims) > 0 {
		s += " at " + h.Dims.String()
	}
	if h.Realization != "" {
		s += " in " + plainOrQuoted(h.Realization)
	}
	return s
}

// paramsDetail writes ": 112896 elements, 112896 in f64" for the
// parameters line.
func paramsDetail(c *count.Counts) string {
	if len(c.ParamsByDType) == 0 {
		return ": none"
	}
	var parts []string
	unshaped := ""
	for _, t := range c.ParamsByDType {
		if t.DType.IsZero() {
			unshaped = doc.ByteCount(t.Bytes) + " given without a shape"
			continue
		}
		parts = append(parts, fmt.Sprintf("%s in %s", t.Elements, t.DType))
	}
	if len(parts) == 0 {
		return ", all given without a shape"
	}
	s := fmt.Sprintf(": %s elements, %s", c.ParamElements, strings.Join(parts, ", "))
	if unshaped != "" {
		s += ", and " + unshaped
	}
	return s
}

// opWhere writes "`Linear.apply/%5` in blocks.ff.up, iteration 0".
func opWhere(op record.Op) string {
	s := record.Show(op.Label)
	if op.Path == "" {
		return s + ", the entry's own"
	}
	call, its := record.SplitPath(op.Path)
	s += " in " + call
	switch len(its) {
	case 0:
	case 1:
		s += fmt.Sprintf(", iteration %d", its[0])
	default:
		var parts []string
		for seg := range strings.SplitSeq(op.Path, ".") {
			if strings.Contains(seg, "[") {
				parts = append(parts, seg)
			}
		}
		s += ", iterations " + strings.Join(parts, ", ")
	}
	return s
}

// liveAtPeakTable lists the buffers live at the peak.
func liveAtPeakTable(rec *record.Recording, c *count.Counts, units doc.Units) string {
	rows := [][]string{{"live at the peak", "bytes", "", "type", "made by"}}
	for k, i := range c.AtPeak {
		b := rec.Buffers.At(i)
		name := fmt.Sprintf("buffer %d", b.ID)
		if b.Name != "" {
			name += " " + record.Show(b.Name)
		}
		made := c.MadeBy[k]
		op := rec.Ops.At(made - 1)
		by := fmt.Sprintf("operation %d, %s", made, record.Show(op.Label))
		if op.Path != "" {
			by += " in " + op.Path
		}
		rows = append(rows, []string{"  " + name, doc.Decimal(b.Bytes), approxCell(b.Bytes, units), typeString(&b), by})
	}
	return alignColumns(dropEmptyColumns(rows, "lrlll"))
}

// typeString writes a buffer's type and shape, "f64 [2, 16, 256]", or
// "bytes" when its size was given directly.
func typeString(b *record.Buffer) string {
	if b.DType.IsZero() {
		return "bytes"
	}
	return b.DType.String() + " " + record.ShapeString(b.Shape)
}

// callRows makes the calls' table, each call indented under its caller.
func callRows(calls []count.Call, units doc.Units) [][]string {
	rows := [][]string{{"calls", "share", "", "own peak", "", "operations"}}
	for _, call := range calls {
		if call.Path == "" && call.Ops == 0 {
			continue
		}
		name := "the entry's own"
		if call.Path != "" {
			name = call.Path[strings.LastIndexByte(call.Path, '.')+1:]
		}
		if call.Iterations > 0 {
			name += fmt.Sprintf(" ×%d", call.Iterations)
		}
		indent := strings.Repeat("  ", max(call.Depth, 1))
		rows = append(rows, []string{indent + name, doc.Decimal(call.Share), approxCell(call.Share, units), doc.Decimal(call.OwnPeak), approxCell(call.OwnPeak, units), fmt.Sprint(call.Ops)})
	}
	return rows
}

// padRight writes s and spaces after it up to width columns of a terminal
// (doc.Columns).
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-doc.Columns(s)))
}

// alignColumns lays rows out in columns two spaces apart, each aligned
// left or right as align says ('l' or 'r' per column), without trailing
// spaces. A cell's width is the columns a terminal gives it (doc.Columns):
// a Chinese name's characters take two each.
func alignColumns(rows [][]string, align string) string {
	widths := make([]int, len(align))
	for _, row := range rows {
		for j, cell := range row {
			widths[j] = max(widths[j], doc.Columns(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for j, cell := range row {
			pad := strings.Repeat(" ", widths[j]-doc.Columns(cell))
			if j > 0 {
				line.WriteString("  ")
			}
			if align[j] == 'r' {
				line.WriteString(pad + cell)
			} else {
				line.WriteString(cell + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
	}
	return b.String()
}
