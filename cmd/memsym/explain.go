package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"memsym/dominance"
	"memsym/explain"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/reports"
)

func init() {
	register(&command{
		name:  "explain",
		short: "write the memory chapter in Markdown, HTML, PDF and TikZ",
		run:   explainCmd,
	})
}

const explainUsage = `-o DIR [--format md,html,pdf,tikz] [--at B=2,T=16] [--along T] [source flags] [R1.jsonl ...]

Writes chapter 13 of a program's explanation: what is counted, the counts at
one point (with --at, or a bundled program's own point), the memory model as
polynomials with where each candidate holds the peak, and how it was checked.
`

func explainCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("explain", explainUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	out := fs.String("o", "", "the `directory` to write into (required)")
	formats := fs.String("format", strings.Join(reports.Names(), ","), "the `formats` to write, comma-separated")
	var at assignments
	fs.Var(&at, "at", "count at this point too: `B=2,T=16`")
	var pointConsts assignments
	fs.Var(&pointConsts, "point-const", "the constants at the point, when they differ from --const: `D=64`")
	along := fs.String("along", "", "the `dimension` along which to say where each candidate holds the peak (default: the last)")
	var verifyPoints countFlag
	fs.Var(&verifyPoints, "verify", "check the model at `n` more points (default 3 with --program or --recorder, 0 with files)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("explain needs -o DIR, the directory to write the chapter into")
	}
	var renderers []reports.Renderer
	for _, name := range strings.Split(*formats, ",") {
		r, ok := reports.Lookup(strings.TrimSpace(name))
		if !ok {
			return usagef("--format %s: expected some of %s", name, strings.Join(reports.Names(), ", "))
		}
		renderers = append(renderers, r)
	}
	if len(files) > 0 && (len(at) > 0 || len(pointConsts) > 0) {
		return usagef("--at records a point: use it with --program or --recorder (or count a file with memsym memory)")
	}

	// A bundled program's chapter preset: the seed's gpt-course chapter
	// counts at D = 64 and models at the course constants.
	var prog *programs.Program
	if sf.program != "" {
		if prog, err = programs.Lookup(sf.program); err != nil {
			return usagef("%v", err)
		}
		if ch := prog.Chapter; ch != nil {
			if len(sf.consts) == 0 {
				for _, k := range sortedKeys(ch.Consts) {
					sf.consts = append(sf.consts, assignment{k, ch.Consts[k]})
				}
				if len(pointConsts) == 0 {
					pointConsts = assignments{} // the program's defaults
					for _, c := range prog.Consts {
						pointConsts = append(pointConsts, assignment{c.Name, c.Default})
					}
				}
			}
		}
		if len(at) == 0 {
			for _, d := range prog.Dims {
				at = append(at, assignment{d.Name, d.Default})
			}
		}
	}
	if len(pointConsts) == 0 {
		pointConsts = sf.consts
	}

	m, err := buildModel(&sf, files, stderr)
	if err != nil {
		return err
	}
	in := &explain.Input{Vars: m.Vars, Entry: m.Structure.Header.Entry, Realization: m.Structure.Header.Realization}
	switch {
	case prog != nil:
		in.Program = prog.Name
	case len(files) > 0:
		in.Program = files[0]
	default:
		in.Program = "the recorder's program"
	}
	in.Consts = nameValues(m.Structure.Header.Consts)
	var symConsts []explain.NameValue

	if len(at) > 0 {
		point := make([]record.Dim, 0, len(m.Vars))
		given := at.values()
		for _, v := range m.Vars {
			x, ok := given[v]
			if !ok {
				return usagef("--at: no value for %s", v)
			}
			point = append(point, record.Dim{Name: v, Value: x})
		}
		psf := sf
		psf.consts = pointConsts
		rec, err := recordAt(&psf, point)
		if err != nil {
			return err
		}
		in.Point = pointCounts(rec, point)
		if constsString(rec.Header.Consts) != constsString(m.Structure.Header.Consts) {
			// The chapter counts at one setting of the constants and
			// models at another, as the seed's does.
			in.Consts = nameValues(rec.Header.Consts)
			symConsts = nameValues(m.Structure.Header.Consts)
		}
	}
	sym, err := symbolicInput(m, *along, at.values())
	if err != nil {
		return err
	}
	sym.Consts = symConsts
	in.Symbolic = sym

	n := verifyPoints.n
	if !verifyPoints.set {
		n = 3
		if len(files) > 0 {
			n = 0
		}
	}
	if n > 0 && len(files) > 0 {
		return usagef("--verify records new points: use it with --program or --recorder")
	}
	for _, pt := range offGridPoints(m.Grid, n, 1) {
		point := make([]record.Dim, len(m.Vars))
		row := explain.VerifyRow{OK: true, Detail: "every buffer, the inputs, the outputs, the live bytes at every operation and the peak as predicted"}
		for i, v := range m.Vars {
			point[i] = record.Dim{Name: v, Value: pt[i]}
			row.Point = append(row.Point, explain.NameInt{Name: v, Value: pt[i]})
		}
		if err := verifyPoint(&sf, m, point); err != nil {
			row.OK, row.Detail = false, oneLine(err)
		}
		in.Verified = append(in.Verified, row)
	}

	doc := explain.Chapter(in)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var written []string
	for _, r := range renderers {
		names, err := r.Render(doc, *out)
		if err != nil {
			return fmt.Errorf("writing the %s: %w", r.Name(), err)
		}
		written = append(written, names...)
	}
	fmt.Fprintf(stdout, "memsym explain: wrote %s into %s: %s\n", plural(len(written), "file", "files"), *out, strings.Join(written, ", "))
	for _, row := range in.Verified {
		if !row.OK {
			return fmt.Errorf("the model does not hold at %s: %s", namedPoint(row.Point), row.Detail)
		}
	}
	return nil
}

// countFlag is a flag of a count, whose default depends on other flags: it
// is unset until given.
type countFlag struct {
	n   int
	set bool
}

func (c *countFlag) String() string {
	if c == nil || !c.set {
		return ""
	}
	return strconv.Itoa(c.n)
}

func (c *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("expected a count of at least 0, found %q", s)
	}
	c.n, c.set = n, true
	return nil
}

func namedPoint(p []explain.NameInt) string {
	var parts []string
	for _, x := range p {
		parts = append(parts, fmt.Sprintf("%s = %d", x.Name, x.Value))
	}
	return strings.Join(parts, ", ")
}

func nameValues(cs []record.Const) []explain.NameValue {
	var out []explain.NameValue
	for _, c := range cs {
		out = append(out, explain.NameValue{Name: c.Name, Value: c.Value})
	}
	return out
}

func constsString(cs []record.Const) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Name+"="+c.Value)
	}
	return strings.Join(parts, ",")
}

// pointCounts turns record's counts at one point into the chapter's.
func pointCounts(rec *record.Recording, point []record.Dim) *explain.PointCounts {
	c := record.Count(rec)
	pc := &explain.PointCounts{
		Ops: c.Ops, Launches: c.Launches,
		Params: c.Params, ParamElements: poly.FromBigInt(c.ParamElements),
		Inputs: c.Inputs, Peak: c.Peak, Outputs: c.Outputs, Needs: c.Needs, Placed: c.Placed,
		PeakOp: c.PeakOp, Live: c.Live,
	}
	for _, d := range point {
		pc.At = append(pc.At, explain.NameInt{Name: d.Name, Value: d.Value})
	}
	if c.PeakOp > 0 {
		op := &rec.Ops[c.PeakOp-1]
		pc.PeakLabel, pc.PeakPath = op.Label, op.Path
	}
	lives := record.Lifetimes(rec)
	for _, i := range c.AtPeak {
		b := &rec.Buffers[i]
		lb := explain.LiveBuffer{Name: b.Name, Bytes: b.Bytes}
		if !b.DType.IsZero() {
			lb.DType = b.DType.String()
		}
		if b.Shape != nil {
			lb.Shape = shapeString(b.Shape)
		}
		if f := lives[i].First; f > 0 && rec.Ops[f-1].Path != "" {
			lb.MadeBy = rec.Ops[f-1].Path
		}
		pc.LiveAtPeak = append(pc.LiveAtPeak, lb)
	}
	for _, call := range c.Calls {
		it := call.Iterations
		if it == 0 {
			it = 1
		}
		pc.Calls = append(pc.Calls, explain.CallRow{Path: call.Path, Iterations: it, Depth: call.Depth, Share: call.Share, OwnPeak: call.OwnPeak})
	}
	return pc
}

func shapeString(shape []int64) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// symbolicInput turns the model into the chapter's, with the crossovers
// along one dimension: for every value of the others where their order does
// not depend on them, else at the point's values.
func symbolicInput(m *model, along string, at map[string]int64) (*explain.SymbolicModel, error) {
	if along == "" {
		along = m.Vars[len(m.Vars)-1]
	}
	if !contains(m.Vars, along) {
		return nil, usagef("--along %s: no dimension %s (the dimensions are %s)", along, along, strings.Join(m.Vars, ", "))
	}
	s := &explain.SymbolicModel{Grid: m.Grid, Checked: m.Checked, Inputs: m.Inputs, Outputs: m.Outputs, Along: along}
	index := map[int]int{}
	for _, i := range m.front.Kept {
		c := m.cands[i]
		op := &m.Structure.Ops[c.Op-1]
		index[i] = len(s.Candidates)
		name, plural := m.candidateName(c.Op)
		s.Candidates = append(s.Candidates, explain.CandidateRow{Poly: c.Poly, Op: c.Op, Label: op.Label, Path: op.Path, Name: name, Plural: plural})
	}
	for _, pr := range m.front.Undecided {
		s.Undecided = append(s.Undecided, [2]int{index[pr[0]], index[pr[1]]})
	}
	cross, err := dominance.Along(m.cands, m.front.Kept, along, nil)
	if err != nil {
		fixed := map[string]int64{}
		for i, v := range m.Vars {
			if v == along {
				continue
			}
			fixed[v] = m.Grid[i][0]
			if x, ok := at[v]; ok {
				fixed[v] = x
			}
		}
		if cross, err = dominance.Along(m.cands, m.front.Kept, along, fixed); err != nil {
			return nil, err
		}
	}
	s.ForAll = cross.ForAll
	for _, v := range m.Vars {
		if x, ok := cross.Fixed[v]; ok {
			s.Fixed = append(s.Fixed, explain.NameInt{Name: v, Value: x})
		} else if x, ok := at[v]; ok && v != along {
			s.Fixed = append(s.Fixed, explain.NameInt{Name: v, Value: x})
		}
	}
	for _, seg := range cross.Segments {
		s.Segments = append(s.Segments, explain.SegmentRow{From: seg.From, To: seg.To, Holder: index[seg.Holder]})
	}
	return s, nil
}

// candidateName says in words what an operation's live set is known by: the
// largest named buffer the operation writes, with the call that writes it
// ("the attention's probabilities"), and whether the name is plural. It is
// "" when the operation writes nothing with a name.
func (m *model) candidateName(op int) (string, bool) {
	o := &m.Structure.Ops[op-1]
	var best *record.Buffer
	for _, id := range o.Writes {
		b := m.Structure.Base(id)
		if b.Name == "" || strings.HasPrefix(b.Name, "%") {
			continue
		}
		if best == nil || b.Bytes.Cmp(best.Bytes) > 0 {
			best = b
		}
	}
	if best == nil {
		return "", false
	}
	plural := strings.HasSuffix(best.Name, "s") && !strings.HasSuffix(best.Name, "ss")
	call := callWords(o.Path)
	if call == "" {
		return "the " + best.Name, plural
	}
	return fmt.Sprintf("the %s's %s", call, best.Name), plural
}

// callWords names the call a path is in, in words: the first call below a
// fold's iteration or a block that only holds others (blocks[0].attn.qkv →
// attention, block.ffn → feed-forward), with the usual short names spelled
// out.
func callWords(path string) string {
	parts := strings.Split(path, ".")
	i := 0
	for i < len(parts)-1 && (strings.HasSuffix(parts[i], "]") || holders[parts[i]]) {
		i++
	}
	call := parts[i]
	if j := strings.IndexByte(call, '['); j >= 0 {
		call = call[:j]
	}
	if w, ok := callNames[call]; ok {
		return w
	}
	return call
}

// holders are the usual names of a call that only holds others, as a
// decoder block holds its attention and its feed-forward.
var holders = map[string]bool{"block": true, "layer": true}

var callNames = map[string]string{
	"attn": "attention", "self_attn": "attention", "xattn": "cross-attention", "cross": "cross-attention",
	"ff": "feed-forward", "ffn": "feed-forward", "mlp": "MLP", "moe": "mixture of experts",
	"ln": "layer norm", "ln1": "first layer norm", "ln2": "second layer norm", "ln_f": "final layer norm",
	"tok_emb": "token embedding", "emb": "embedding", "head": "head",
}
