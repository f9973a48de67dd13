package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memsym/count"
	"memsym/doc"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
)

// The analytic estimates users know, evaluated on the same program as the
// exact step, term by term (memory --step --compare, and the chapter):
//
//   - the handbook's static memory, the 14P rule: fp16 parameters (2P
//     bytes), an fp32 gradient (4P) and fp32 optimizer states, two moments
//     for Adam (8P), one for Lion and SGD (4P), a tenth of a state per
//     parameter for Adafactor (2P/5), P the parameters' elements;
//   - Korthikanti et al.'s activations per layer, s·b·h·(34 + 5·a·s/h)
//     bytes (fp16, with dropout), and 2·s·b·h with full recomputation.

// CompareRow is one term: its estimate and the exact count.
type CompareRow struct {
	Term     string    // what is estimated
	Rule     string    // the estimate's formula
	Estimate poly.Poly // bytes, as the rule gives them on this program
	Exact    poly.Poly // bytes, as memsym counts them
	Why      string    // what the rule assumes that this program does otherwise
	// WhyParts is Why as words and exact numbers (strings and
	// poly.Rat), for a writer that sets numbers its own way: the
	// chapter groups their digits. Nil when Why holds no number.
	WhyParts []any
	// For the step's row, where its peak is above the estimate: what the
	// peak holds that no row counts, and what the rows above count whole
	// but the peak does not hold all of (stepParts).
	add, less []stepPart
}

// whyText writes parts as Why says them: the numbers as plain decimals.
func whyText(parts []any) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b.WriteString(p)
		case poly.Rat:
			b.WriteString(p.String())
		}
	}
	return b.String()
}

// CompareInput is what the estimates are evaluated on.
type CompareInput struct {
	Header *record.Header
	// Symbolic is set when the dimensions are variables (the exact terms
	// are polynomials in them); else they take the header's values.
	Symbolic bool
	Opts     programs.StepOptions
	Shape    *programs.Transformer // nil: no activation estimate
	Act      record.DType          // the activations' stored type
	// ParamType, GradType and StateType are the stored types of the
	// parameters, the gradient and the states (but the step count),
	// zero when they are of several types or there are none (untyped).
	ParamType, GradType, StateType record.DType
	// counted holds, by kind ("params", "gradient", "states"), how many
	// of its buffers there are and how many of them have a type: a step
	// without a backward phase has no gradient at all.
	counted map[string]*typeOf
	// StepCount is true when some state is a scalar, as AdamW's step
	// count is.
	StepCount bool
	// Unnamed is true for a recording whose optimizer is not known: not
	// a bundled program's, and its entry names none (optimizerOf), or
	// one memsym has no rule for, Named. The states' rule is then
	// AdamW's, and the row says so.
	Unnamed bool
	Named   string

	ParamElements                            poly.Poly
	Params, Gradient, States, Kept, InLayers poly.Poly
	Frozen                                   poly.Poly  // the parameters' elements that get no gradient
	Peak                                     *poly.Poly // the step's peak, at a point only
	// PeakAt is where the step's peak is and its terms, with Peak.
	PeakAt *count.PhasePeak
}

// Comparison is the estimates on one step: P, the parameters' elements,
// and the rows.
type Comparison struct {
	P poly.Poly
	// Symbol is P's name in the rules: the handbook's "P", or "Ψ" (as
	// ZeRO writes it) for a program with a dimension or constant named P.
	Symbol string
	Rows   []CompareRow
	// Omitted says, when not "", which estimates are left out and why.
	Omitted string
}

// Compare evaluates the estimates on in, term by term.
func Compare(in CompareInput) (*Comparison, error) {
	p := in.ParamElements
	c := func(n int64) poly.Poly { return p.Scale(poly.Int(n)) }
	sym := paramSymbol(in.Header)
	states, statesRule, statesWhy := handbookStates(in.Opts.Optimizer, p, sym)
	rows := []CompareRow{
		{Term: "parameters", Rule: "2·" + sym + " (fp16)", Estimate: c(2), Exact: in.Params,
			Why: "the rule stores parameters in fp16, 2 bytes; here " + in.typesOf("params")},
		{Term: "gradient", Rule: "4·" + sym + " (fp32)", Estimate: c(4), Exact: in.Gradient,
			Why: "the rule has an fp32 gradient for every parameter; here " + in.typesOf("gradient") + frozenNote(in.Frozen)},
		{Term: "optimizer's states", Rule: statesRule, Estimate: states, Exact: in.States, Why: statesWhy + in.unnamedNote() + "; here " + in.typesOf("states") + in.masterNote() + in.countNote()},
	}
	static := rows[0].Estimate.Add(rows[1].Estimate).Add(rows[2].Estimate)
	exactStatic := in.Params.Add(in.Gradient).Add(in.States)
	rows = append(rows, CompareRow{Term: "static memory", Rule: "the sum of the three", Estimate: static, Exact: exactStatic,
		Why: "the sum of the differences above"})
	acts := poly.New(nil, nil)
	var kept *poly.Poly // the exact bytes the forward keeps, when estimated
	if in.Shape != nil {
		r, err := in.activations()
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
		acts = r[len(r)-1].Estimate
		kept = &r[len(r)-1].Exact
	}
	if in.Peak != nil {
		rule := "static memory + activations (without the handbook's 512 MB for the framework)"
		if in.Shape == nil {
			rule = "static memory, no activations estimated (without the handbook's 512 MB for the framework)"
		}
		estimate := static.Add(acts)
		why := in.stepWhy(estimate, kept)
		add, less, _ := in.stepParts(estimate, kept)
		rows = append(rows, CompareRow{Term: "the step", Rule: rule, Estimate: estimate, Exact: *in.Peak, Why: whyText(why), WhyParts: why, add: add, less: less})
	}
	var vars []string
	for _, d := range in.Header.Dims {
		vars = append(vars, d.Name)
	}
	zero := poly.New(vars, nil) // the estimates' variables in the dimensions' order
	for i := range rows {
		rows[i].Estimate = zero.Add(rows[i].Estimate)
	}
	return &Comparison{P: p, Symbol: sym, Rows: rows}, nil
}

// paramSymbol names the parameters' elements in the rules: P, as the
// handbook does, unless the program has a dimension or constant named P
// (bert-encoder's positions); then Ψ, as ZeRO does.
func paramSymbol(h *record.Header) string {
	if _, ok := h.Dim("P"); ok {
		return "Ψ"
	}
	for _, c := range h.Consts {
		if c.Name == "P" {
			return "Ψ"
		}
	}
	return "P"
}

// stepWhy says why the step's peak misses the rule's estimate, by the
// sign of the difference: an estimate above it adds terms never all live
// at once; one below it leaves out what is live at the peak besides them
// (stepParts), and what it says adds up.
func (in *CompareInput) stepWhy(estimate poly.Poly, kept *poly.Poly) []any {
	add, less, ok := in.stepParts(estimate, kept)
	if !ok {
		return []any{"the rule adds every term, but the gradient, the activations and the optimizer's new values are never all live at once"}
	}
	said := func(ps []stepPart) []any {
		var out []any
		for _, p := range ps {
			out = append(out, []any{p.Bytes, " bytes of " + p.What})
		}
		return doc.Joined(", ", out...)
	}
	what := []any{"nothing the rule does not count"}
	if len(add) > 0 {
		what = append([]any{"what the rule does not count, "}, said(add)...)
	}
	out := []any{fmt.Sprintf("the exact peak is larger: at it (operation %d, the %s phase) the step holds ", in.PeakAt.Op, in.PeakAt.Phase)}
	out = append(out, what...)
	out = append(out, ", beside the differences of the rows above")
	if len(less) > 0 {
		out = append(out, ", less ")
		out = append(out, said(less)...)
		out = append(out, ", not live there")
	}
	return out
}

// stepPart is some bytes of the step's peak, and what they are.
type stepPart struct {
	Bytes poly.Rat
	What  string
}

// stepParts returns, where the step's peak is above the rule's estimate,
// what makes up the difference beside the differences of the rows above
// it (the static memory's, and the activations' where kept, the exact
// bytes the forward keeps, is given): add, what the peak holds that the
// rule does not count, and less, what those rows count whole but is not
// all live at the peak. The difference is the rows' differences, plus
// add, less less. ok is false where the peak is not above the estimate,
// or is not known at a point.
func (in *CompareInput) stepParts(estimate poly.Poly, kept *poly.Poly) (add, less []stepPart, ok bool) {
	e, ok1 := estimate.IsConst()
	x, ok2 := in.Peak.IsConst()
	if !ok1 || !ok2 || x.Cmp(e) <= 0 || in.PeakAt == nil {
		return nil, nil, false
	}
	t := in.PeakAt.Terms
	if t.Batch.Sign() > 0 {
		add = append(add, stepPart{t.Batch, "the batch"})
	}
	if t.Own.Sign() > 0 {
		add = append(add, stepPart{t.Own, "the operation's own working memory"})
	}
	if kept == nil && t.Kept.Sign() > 0 {
		add = append(add, stepPart{t.Kept, "what the forward kept for the backward (no activations estimated)"})
	}
	notLive := func(whole poly.Poly, live poly.Rat, what string) {
		if w, ok := whole.IsConst(); ok && live.Cmp(w) < 0 {
			less = append(less, stepPart{w.Sub(live), what})
		}
	}
	notLive(in.Params, t.Params, "the parameters")
	notLive(in.Gradient, t.Gradient, "the gradient")
	notLive(in.States, t.States, "the optimizer's states")
	if kept != nil {
		notLive(*kept, t.Kept, "what the forward kept")
	}
	return add, less, true
}

// handbookStates returns the handbook's optimizer states: its multiplier
// of fp32 states per parameter, the rule written with sym for P.
func handbookStates(o programs.Optimizer, p poly.Poly, sym string) (poly.Poly, string, string) {
	switch o {
	case programs.SGD:
		return p.Scale(poly.Int(4)), "4·" + sym + " (one fp32 momentum)", "the rule has one fp32 state per parameter"
	case programs.Lion:
		return p.Scale(poly.Int(4)), "4·" + sym + " (one fp32 momentum)", "the rule has one fp32 state per parameter"
	case programs.Adafactor:
		return p.Scale(poly.Frac(2, 5)), "2·" + sym + "/5 (a tenth of an fp32 state per parameter)",
			"the rule takes a tenth of a state per parameter; the factors are a row and a column per matrix"
	}
	return p.Scale(poly.Int(8)), "8·" + sym + " (two fp32 moments)", "the rule has two fp32 moments per parameter"
}

// optimizerOf returns the optimizer that a step's recording names in its
// entry, "MLP.step(sgd)" as memsym's PyTorch recorder writes it; else
// AdamW, with unnamed true and, when the entry names an optimizer memsym
// has no rule for ("MLP.step(rmsprop)"), that name.
func optimizerOf(h *record.Header) (o programs.Optimizer, unnamed bool, named string) {
	e := h.Entry
	if i := strings.LastIndex(e, ".step("); i >= 0 && strings.HasSuffix(e, ")") {
		named = e[i+len(".step(") : len(e)-1]
		if o, err := programs.ParseOptimizer(named); err == nil {
			return o, false, ""
		}
	}
	return programs.AdamW, true, named
}

// unnamedNote says, for a recording that does not name its optimizer,
// whose rule the states' row took.
func (in *CompareInput) unnamedNote() string {
	if !in.Unnamed {
		return ""
	}
	if in.Named != "" {
		return fmt.Sprintf(" (the recording's entry names the optimizer %s, for which memsym has no rule: AdamW's rule is taken)", record.Show(in.Named))
	}
	return " (the recording's entry names no optimizer, as `M.step(sgd)` would: AdamW's rule is taken; a bundled program's step, counted with --program, takes its --optimizer's)"
}

// countNote says that the states hold a step count, where one does.
func (in *CompareInput) countNote() string {
	if !in.StepCount {
		return ""
	}
	return ", and the step count"
}

// masterNote says, for a step that keeps a master copy of the parameters
// among its states (--types master=...), that the states hold it too: the
// rule has no such state.
func (in *CompareInput) masterNote() string {
	m := in.Opts.Types.Master
	if m.IsZero() {
		return ""
	}
	return fmt.Sprintf(", a master copy of the parameters (%s) besides", m)
}

func frozenNote(frozen poly.Poly) string {
	if frozen.IsZero() {
		return ""
	}
	return "; " + frozen.String() + " of the parameters' elements are not trained and have none"
}

// typesOf says in words the stored type of a kind of buffer.
func (in *CompareInput) typesOf(kind string) string {
	d := map[string]record.DType{"params": in.ParamType, "gradient": in.GradType, "states": in.StateType}[kind]
	switch c := in.counted[kind]; {
	case c != nil && c.n == 0:
		return "none"
	case c != nil && c.typed == 0:
		return "given in bytes, without a type"
	case d.IsZero():
		return "of several types"
	}
	return fmt.Sprintf("%s, %s bytes", d, poly.Frac(int64(d.Bits), 8))
}

// activations returns Korthikanti et al.'s rows.
func (in *CompareInput) activations() ([]CompareRow, error) {
	sh := in.Shape
	var vals [5]poly.Poly
	for i, name := range []string{sh.S, sh.B, sh.H, sh.A, sh.L} {
		v, err := in.value(name)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	s, b, h, a, l := vals[0], vals[1], vals[2], vals[3], vals[4]
	sbh := s.Mul(b).Mul(h)
	as2b := a.Mul(s).Mul(s).Mul(b)
	e := poly.Frac(int64(in.Act.Bits), 16) // the element's bytes over fp16's 2
	exactPerLayer, err := divide(in.InLayers, l)
	if err != nil {
		return nil, err
	}
	act := fmt.Sprintf("%s (%s bytes)", in.Act, poly.Frac(int64(in.Act.Bits), 8))
	sameWhy := func(est poly.Poly, but string) string {
		if est.Equal(exactPerLayer) {
			return "none: with " + but + " taken as this program's, the formula's layer keeps what this program's keeps"
		}
		return "what remains differs with the layer's own operations (the formula's are a GPT-2 layer's: two layer norms, attention, a GELU MLP of width 4h)"
	}
	if in.Opts.Remat == programs.Recompute {
		perLayer := sbh.Scale(poly.Int(2))
		same := perLayer.Scale(e)
		return []CompareRow{
			{Term: "kept per layer, recomputing", Rule: "2·s·b·h", Estimate: perLayer, Exact: exactPerLayer,
				Why: "the formula keeps each layer's input in fp16 (2 bytes); here " + act},
			{Term: "kept per layer, recomputing, at the program's type", Rule: fmt.Sprintf("2·s·b·h·%s", e), Estimate: same, Exact: exactPerLayer, Why: sameWhy(same, "the type")},
			{Term: "kept, all layers, recomputing", Rule: "2·s·b·h·L", Estimate: perLayer.Mul(l), Exact: in.Kept,
				Why: "besides the layers' inputs, what the layers do not recompute (the embedding, the final norm, the head, the loss) is kept"},
		}, nil
	}
	perLayer := sbh.Scale(poly.Int(34)).Add(as2b.Scale(poly.Int(5)))
	same := sbh.Scale(poly.Int(32)).Add(as2b.Scale(poly.Int(2))).Scale(e)
	rows := []CompareRow{
		{Term: "kept per layer", Rule: "s·b·h·(34 + 5·a·s/h)", Estimate: perLayer, Exact: exactPerLayer,
			Why: "the formula counts fp16 activations (2 bytes) and dropout's masks and outputs (2·s·b·h + 3·a·s²·b bytes); here " + act + " and no dropout"},
		{Term: "kept per layer, at the program's type, without dropout", Rule: fmt.Sprintf("(32·s·b·h + 2·a·s²·b)·%s", e), Estimate: same, Exact: exactPerLayer, Why: sameWhy(same, "the type and dropout")},
		{Term: "kept, all layers", Rule: "s·b·h·(34 + 5·a·s/h)·L", Estimate: perLayer.Mul(l), Exact: in.Kept,
			Why: "besides the layers' differences, the embedding, the final norm, the head and the loss keep what is outside the layers"},
	}
	return rows, nil
}

// value returns a dimension (a variable, or its value at the point) or a
// constant by name; "" is 1.
func (in *CompareInput) value(name string) (poly.Poly, error) {
	if name == "" {
		return poly.Const(poly.Int(1)), nil
	}
	if v, ok := in.Header.Dim(name); ok {
		if in.Symbolic {
			return poly.Var(name), nil
		}
		return poly.Const(poly.Int(v)), nil
	}
	for _, c := range in.Header.Consts {
		if c.Name == name {
			n, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				return poly.Poly{}, fmt.Errorf("constant %s = %s: expected an integer", name, c.Value)
			}
			return poly.Const(poly.Int(n)), nil
		}
	}
	return poly.Poly{}, fmt.Errorf("the recording has no dimension or constant %s", name)
}

// divide divides p by a constant polynomial q.
func divide(p, q poly.Poly) (poly.Poly, error) {
	c, ok := q.IsConst()
	if !ok || c.Sign() <= 0 {
		return poly.Poly{}, fmt.Errorf("the layer count %s is not a positive constant", q)
	}
	return p.Scale(poly.Int(1).Quo(c)), nil
}

// CompareAt evaluates the estimates on a step's recording at its point.
// The program, when not nil, gives the transformer's shape; act is the
// activations' type.
func CompareAt(rec *record.Recording, s *count.Step, p *programs.Program, opts programs.StepOptions, act record.DType) (*Comparison, error) {
	in := CompareInput{Header: &rec.Header, Opts: opts, Act: act}
	if p != nil {
		in.Shape = p.Transformer
	} else {
		in.Opts.Optimizer, in.Unnamed, in.Named = optimizerOf(&rec.Header)
	}
	lives := count.Lifetimes(rec)
	bytes := func(i int) poly.Poly { return poly.Const(rec.Buffers.Bytes(i)) }
	in.fill(rec, s.Class, lives, bytes, nil)
	peak := poly.Const(s.Peak.Terms.Sum())
	in.Peak, in.PeakAt = &peak, &s.Peak
	return Compare(in)
}

// Compare evaluates the estimates on the step's polynomials.
func (s *Step) Compare(p *programs.Program, opts programs.StepOptions, act record.DType) (*Comparison, error) {
	in := CompareInput{Header: s.Header(), Symbolic: true, Opts: opts, Act: act}
	if p != nil {
		in.Shape = p.Transformer
	} else {
		in.Opts.Optimizer, in.Unnamed, in.Named = optimizerOf(s.Header())
	}
	omitted := ""
	if in.Shape != nil && slices.Contains(s.Vars, in.Shape.L) {
		// The fold's blocks stand for L − 2 of them in the recordings'
		// structure: the layers' bytes summed over it are not L layers'.
		omitted = fmt.Sprintf("Korthikanti et al.'s activations are per layer, and with the layer count %s a dimension the model does not split what the step keeps by layer: their rows are left out", in.Shape.L)
		in.Shape = nil
	}
	in.fill(s.Structure, s.Class, s.Lives, s.Bytes, s.Vars)
	cmp, err := Compare(in)
	if err != nil {
		return nil, err
	}
	cmp.Omitted = omitted
	return cmp, nil
}

// fill sums the exact terms from each buffer's class and bytes.
func (in *CompareInput) fill(rec *record.Recording, class []count.Class, lives []count.Life, bytes func(int) poly.Poly, vars []string) {
	zero := poly.New(vars, nil)
	in.ParamElements, in.Params, in.Gradient, in.States, in.Kept, in.InLayers = zero, zero, zero, zero, zero, zero
	gradElements := zero
	types := map[count.Class]*typeOf{count.ClassParam: {}, count.ClassGradient: {}, count.ClassState: {}}
	for i := range rec.Buffers.Len() {
		b := rec.Buffers.At(i)
		// A scalar state is a step count; a state given in bytes (no
		// shape at all) is not one.
		scalarState := class[i] == count.ClassState && b.Shape != nil && len(b.Shape) == 0
		if t, ok := types[class[i]]; ok && !scalarState {
			t.see(b.DType)
		}
		if scalarState && !b.IsView {
			in.StepCount = true
		}
		var elements poly.Poly
		if b.DType.Bits > 0 {
			elements = bytes(i).Scale(poly.Frac(8, int64(b.DType.Bits)))
		}
		switch class[i] {
		case count.ClassParam:
			in.Params = in.Params.Add(bytes(i))
			if b.DType.Bits > 0 {
				in.ParamElements = in.ParamElements.Add(elements)
			}
		case count.ClassState:
			in.States = in.States.Add(bytes(i))
		case count.ClassGradient:
			in.Gradient = in.Gradient.Add(bytes(i))
			if b.DType.Bits > 0 {
				gradElements = gradElements.Add(elements)
			}
		case count.ClassKept:
			in.Kept = in.Kept.Add(bytes(i))
			if in.Shape != nil && inLayer(rec.Ops.Path(int(lives[i].First)-1), in.Shape.Layer) {
				in.InLayers = in.InLayers.Add(bytes(i))
			}
		}
	}
	in.Frozen = in.ParamElements.Sub(gradElements)
	in.ParamType, in.GradType, in.StateType = types[count.ClassParam].t, types[count.ClassGradient].t, types[count.ClassState].t
	in.counted = map[string]*typeOf{"params": types[count.ClassParam], "gradient": types[count.ClassGradient], "states": types[count.ClassState]}
}

// typeOf finds the one type of some buffers, zero when they have several;
// n counts the buffers, typed those of a type (not given in bytes).
type typeOf struct {
	t        record.DType
	mixed    bool
	n, typed int
}

func (t *typeOf) see(d record.DType) {
	t.n++
	if !d.IsZero() {
		t.typed++
	}
	switch {
	case t.mixed:
	case t.t.IsZero():
		t.t = d
	case t.t != d:
		t.t, t.mixed = record.DType{}, true
	}
}

// inLayer reports whether an operation at path runs in the layers' call.
func inLayer(path, layer string) bool {
	if layer == "" {
		return false
	}
	return path == layer || strings.HasPrefix(path, layer+".") || strings.HasPrefix(path, layer+"[")
}
