package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"memsym/poly"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "memory",
		short: "count a recording's memory at its point: the inputs, the peak and where, the calls' shares",
		run:   memoryCmd,
	})
}

const memoryUsage = `[--json] REC ("-" reads stdin)

Counts what the recorded program needs in memory at the recording's point:
the parameters and inputs the caller holds, the peak of live bytes and the
operation where it is first reached, the outputs, what is needed (the inputs
and the peak), and a placement of every temp at an offset by its life.
Then the buffers live at the peak and the calls' table: each call path, a
fold's iterations together, with its share of the peak (what it made that is
live there) and its own peak (the most of what it made live while it runs).
Every number is exact; a fraction of a byte prints as 3/2.

With --json, one JSON object with the same counts: bytes and elements as
strings (they may be fractions or exceed 64 bits), ids, dimensions and
shapes as in the recording, keys in a fixed order.
`

func memoryCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("memory", memoryUsage, stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	files, err := parseFlags(fs, args)
	if err != nil {
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
	c := record.Count(rec)
	if *asJSON {
		return writeMemoryJSON(stdout, rec, c)
	}
	_, err = io.WriteString(stdout, memoryText(rec, c))
	return err
}

// memoryText writes the counts as `memsym memory` prints them.
func memoryText(rec *record.Recording, c *record.Counts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "memsym memory: %s: %s, %s\n", memoryTitle(&rec.Header),
		plural(c.Ops, "operation", "operations"), plural(c.Launches, "launch", "launches"))
	line := func(what, format string, args ...any) {
		fmt.Fprintf(&b, "  %-11s %s\n", what, fmt.Sprintf(format, args...))
	}
	line("parameters", "%s bytes%s", c.Params, paramsDetail(c))
	line("inputs", "%s bytes, the parameters among them", c.Inputs)
	if c.PeakOp == 0 {
		line("peak", "0 bytes live: no operations")
	} else {
		line("peak", "%s bytes live, at operation %d of %d, %s", c.Peak, c.PeakOp, c.Ops, opWhere(&rec.Ops[c.PeakOp-1]))
	}
	line("outputs", "%s bytes", c.Outputs)
	line("needs", "%s bytes: the inputs and the peak", c.Needs)
	line("placed", "%s bytes beside the inputs: every buffer at an offset by its life, largest first, rounded to %d", c.Placed, record.Align)
	if c.PeakOp > 0 {
		b.WriteString("\n")
		b.WriteString(liveAtPeakTable(rec, c))
	}
	if rows := callRows(c.Calls); len(rows) > 1 {
		b.WriteString("\n")
		b.WriteString(alignColumns(rows, "lrrr"))
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
		s += " at " + record.PointString(h.Dims)
	}
	if h.Realization != "" {
		s += " in " + h.Realization
	}
	return s
}

// paramsDetail writes ": 112896 elements, 112896 in f64" for the
// parameters line.
func paramsDetail(c *record.Counts) string {
	if len(c.ParamsByDType) == 0 {
		return ": none"
	}
	var parts []string
	unshaped := ""
	for _, t := range c.ParamsByDType {
		if t.DType.IsZero() {
			unshaped = fmt.Sprintf("%s bytes given without a shape", t.Bytes)
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
func opWhere(op *record.Op) string {
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
func liveAtPeakTable(rec *record.Recording, c *record.Counts) string {
	lives := record.Lifetimes(rec)
	rows := [][]string{{"live at the peak", "bytes", "type", "made by"}}
	for _, i := range c.AtPeak {
		b := &rec.Buffers[i]
		name := fmt.Sprintf("buffer %d", b.ID)
		if b.Name != "" {
			name += " " + record.Show(b.Name)
		}
		made := lives[i].First
		op := &rec.Ops[made-1]
		by := fmt.Sprintf("operation %d, %s", made, record.Show(op.Label))
		if op.Path != "" {
			by += " in " + op.Path
		}
		rows = append(rows, []string{"  " + name, b.Bytes.String(), typeString(b), by})
	}
	return alignColumns(rows, "lrll")
}

// typeString writes a buffer's type and shape, "f64 [2, 16, 256]", or
// "bytes" when its size was given directly.
func typeString(b *record.Buffer) string {
	if b.DType.IsZero() {
		return "bytes"
	}
	return b.DType.String() + " " + shapeString(b.Shape)
}

// callRows makes the calls' table, each call indented under its caller.
func callRows(calls []record.Call) [][]string {
	rows := [][]string{{"calls", "share", "own peak", "operations"}}
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
		rows = append(rows, []string{indent + name, call.Share.String(), call.OwnPeak.String(), fmt.Sprint(call.Ops)})
	}
	return rows
}

// alignColumns lays rows out in columns two spaces apart, each aligned
// left or right as align says ('l' or 'r' per column), without trailing
// spaces.
func alignColumns(rows [][]string, align string) string {
	widths := make([]int, len(align))
	for _, row := range rows {
		for j, cell := range row {
			widths[j] = max(widths[j], len([]rune(cell)))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for j, cell := range row {
			pad := strings.Repeat(" ", widths[j]-len([]rune(cell)))
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

// memoryJSON is `memsym memory --json`'s object; its fields' order is the
// keys' order.
type memoryJSON struct {
	Entry       string      `json:"entry"`
	Dims        orderedDims `json:"dims"`
	Realization string      `json:"realization"`
	Operations  int         `json:"operations"`
	Launches    int         `json:"launches"`
	Parameters  paramsJSON  `json:"parameters"`
	Inputs      string      `json:"inputs"`
	Peak        peakJSON    `json:"peak"`
	Outputs     string      `json:"outputs"`
	Needs       string      `json:"needs"`
	Placed      string      `json:"placed"`
	Live        []string    `json:"live"`
	LiveAtPeak  []liveJSON  `json:"live_at_peak"`
	Calls       []callJSON  `json:"calls"`
}

type paramsJSON struct {
	Bytes    string          `json:"bytes"`
	Elements string          `json:"elements"`
	ByDType  []typeCountJSON `json:"by_dtype"`
}

type typeCountJSON struct {
	DType    string `json:"dtype"` // "" for the parameters given in bytes
	Elements string `json:"elements"`
	Bytes    string `json:"bytes"`
}

type peakJSON struct {
	Bytes     string `json:"bytes"`
	Operation int    `json:"operation"` // 0 when there are no operations
	Label     string `json:"label"`
	Path      string `json:"path"`
}

type liveJSON struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	DType  string  `json:"dtype"`
	Shape  []int64 `json:"shape"`
	Bytes  string  `json:"bytes"`
	MadeBy int     `json:"made_by"` // the operation that first writes it
}

type callJSON struct {
	Path       string `json:"path"`
	Iterations int    `json:"iterations"`
	Depth      int    `json:"depth"`
	Share      string `json:"share"`
	OwnPeak    string `json:"own_peak"`
	Operations int    `json:"operations"`
}

// orderedDims writes the dimensions as an object in the header's order.
type orderedDims []record.Dim

func (d orderedDims) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, dim := range d {
		if i > 0 {
			b = append(b, ',')
		}
		name, err := json.Marshal(dim.Name)
		if err != nil {
			return nil, err
		}
		b = append(b, name...)
		b = fmt.Appendf(b, ":%d", dim.Value)
	}
	return append(b, '}'), nil
}

func writeMemoryJSON(w io.Writer, rec *record.Recording, c *record.Counts) error {
	h := &rec.Header
	out := memoryJSON{
		Entry: h.Entry, Dims: orderedDims(h.Dims), Realization: h.Realization,
		Operations: c.Ops, Launches: c.Launches,
		Parameters: paramsJSON{Bytes: c.Params.String(), Elements: c.ParamElements.String(), ByDType: []typeCountJSON{}},
		Inputs:     c.Inputs.String(),
		Peak:       peakJSON{Bytes: c.Peak.String(), Operation: c.PeakOp},
		Outputs:    c.Outputs.String(), Needs: c.Needs.String(), Placed: c.Placed.String(),
		Live: ratStrings(c.Live), LiveAtPeak: []liveJSON{}, Calls: []callJSON{},
	}
	for _, t := range c.ParamsByDType {
		dt := ""
		if !t.DType.IsZero() {
			dt = t.DType.String()
		}
		out.Parameters.ByDType = append(out.Parameters.ByDType, typeCountJSON{dt, t.Elements.String(), t.Bytes.String()})
	}
	if c.PeakOp > 0 {
		op := &rec.Ops[c.PeakOp-1]
		out.Peak.Label, out.Peak.Path = op.Label, op.Path
	}
	lives := record.Lifetimes(rec)
	for _, i := range c.AtPeak {
		b := &rec.Buffers[i]
		l := liveJSON{ID: b.ID, Name: b.Name, Shape: b.Shape, Bytes: b.Bytes.String(), MadeBy: lives[i].First}
		if !b.DType.IsZero() {
			l.DType = b.DType.String()
		}
		out.LiveAtPeak = append(out.LiveAtPeak, l)
	}
	for _, call := range c.Calls {
		out.Calls = append(out.Calls, callJSON{call.Path, call.Iterations, call.Depth, call.Share.String(), call.OwnPeak.String(), call.Ops})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func ratStrings(xs []poly.Rat) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}
