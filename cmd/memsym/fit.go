package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "fit",
		short: "find the largest value of a dimension whose needs fit a memory budget, exactly",
		run:   fitCmd,
	})
}

const fitUsage = `--budget 80GiB[,40GiB,...] --along T [--at B=8] [--step [--remat store|recompute|both]] [--confirm] [--units iec|si|bytes] [--json] [source flags] [R1.jsonl ...]

Builds the symbolic model as memsym symbolic does, then finds, for each
budget, the largest T whose needs (the inputs and the peak) are at most the
budget, the other dimensions fixed by --at. The needs are polynomials, so
the answer is exact and found without assuming that they grow along T:
values below the answer that do not fit are listed. Each answer comes with
the needs at T and at T + 1 and the candidate holding the peak there. A
budget that no T fits, or that every T fits (the needs do not grow along T),
is said so.

A budget is a number of bytes, perhaps with a unit: 80GiB (powers of
1024), 80GB (powers of 1000), 8e10, 1.5GiB. --confirm records the program
at each answer and one past it (with --program, --recorder or --torch) and
checks that the recorded needs are the model's and fall on the predicted
side of the budget.

With --step, the largest T whose training step's peak fits each budget
(docs/step.md): the step's peak holds the parameters, the optimizer's
states and the batch with what is live, so nothing is added to it. The step
is a bundled program's under --remat (both: one table each), --optimizer
and --types, or the recordings' own; --confirm records the step at each
answer and one past it and counts its peak.
`

func fitCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("fit", fitUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	var budgetArgs listFlag
	fs.Var(&budgetArgs, "budget", "the memory `budget`: 80GiB, 80GB, 8e10 (repeatable, or 24GiB,40GiB,80GiB)")
	along := fs.String("along", "", "the `dimension` to find the largest value of (required)")
	var at assignments
	fs.Var(&at, "at", "the other dimensions' values, `B=8` (repeatable, or B=8,S=2)")
	confirm := fs.Bool("confirm", false, "record at each answer and one past it, and check the needs")
	units := addUnits(fs)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	var step stepFlags
	step.registerStep(fs, "fit a training step: the largest value whose step's peak (the parameters, the optimizer's states, the batch and what is live) fits the budget (docs/step.md)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	budgets, err := parseBudgets(budgetArgs)
	if err != nil {
		return err
	}
	if *along == "" {
		return usagef("fit needs --along DIM, the dimension to find the largest value of")
	}
	if *confirm && len(files) > 0 {
		return usagef("--confirm records new points: use it with --program, --recorder or --torch")
	}
	sf.before = func(dims []string, slow bool) error { return beforeLine(dims, *along, at, slow) }
	if step.step {
		return fitStep(stdout, stderr, &step, &sf, files, budgets, *along, at, *confirm, *asJSON, *units)
	}
	if err := step.check(false); err != nil {
		return err
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	if err := checkAlong(m, src, *along, at); err != nil {
		return err
	}
	fixed := at.values()
	from := runsFrom(m, src, *along, fixed)
	var fits []*model.Fit
	var checks [][]model.FitCheck
	var limits []string // per budget: where the answer lies past the program's sizes
	var pasts []string  // per budget: where one past the answer does
	var belows []string // per budget: where below the answer the program does not run
	bad, failed := 0, 0
	for _, b := range budgets {
		f, err := m.FitFrom(*along, fixed, b, from)
		if err != nil {
			return underBudget(err, b, budgets, *units)
		}
		fits = append(fits, f)
		limits = append(limits, m.Beyond(src, f, m.NeedsFit(b)))
		pasts = append(pasts, m.PastBeyond(src, f))
		belows = append(belows, m.Below(src, f))
		if !*confirm {
			continue
		}
		if limits[len(limits)-1] != "" {
			checks = append(checks, nil) // the program cannot be recorded there
			continue
		}
		c, err := m.ConfirmFit(context.Background(), src, f)
		if err != nil {
			return err
		}
		bad += model.Contradicting(c, b)
		failed += model.UnrecordedChecks(c)
		checks = append(checks, c)
	}
	atOne := m.UnrecordedAtOne(src, fits[0].Fixed, []string{*along})
	if *asJSON {
		out := &model.FitJSON{Entry: m.Header().Entry, Along: *along, Fixed: model.OrderedPoint(fits[0].Fixed), Checked: m.CheckedJSON(), Domain: m.DomainJSON(),
			AtOneJSON: model.AtOneJSON{UnrecordedAtOne: atOne}}
		if out.Fixed == nil {
			out.Fixed = model.OrderedPoint{}
		}
		for i, f := range fits {
			var c []model.FitCheck
			if *confirm {
				c = checks[i]
			}
			bj := m.BudgetFitJSON(f, c)
			bj.NotRunning, bj.PastNotRunning = limits[i], pasts[i]
			out.Budgets = append(out.Budgets, bj)
		}
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
	} else {
		io.WriteString(stdout, fitText(m, fits, *units, belowLine(atOne, fitCheckFlag(m, src, fits, atOne))))
		var names []string
		for _, f := range fits {
			names = append(names, budgetLabel(f.Budget, *units, needsOf(f.At), needsOf(f.Past)))
		}
		writeNotes(stdout, limits, names, notConfirmed(*confirm))
		writeNotes(stdout, pasts, names, "")
		writeFirstNote(stdout, belows)
		for i := range checks {
			if checks[i] != nil {
				io.WriteString(stdout, fitConfirmText(fits[i], checks[i], fitNeeds, *units))
			}
		}
		io.WriteString(stdout, besideText(src, false))
	}
	return confirmError("fit", bad, failed)
}

// fitCheckFlag returns the --check that records the first answer among
// fits, and which of the sizes of 1 in atOne it records, for the note on
// values nothing was recorded at; "" where there is none, where it has no
// dimension at 1, or where it lies on the grid in some dimension (no check
// point can).
func fitCheckFlag(m *model.Model, src source.Source, fits []*model.Fit, atOne []string) string {
	var answers []record.Point
	for _, f := range fits {
		if f.At != nil {
			answers = append(answers, f.At.Point)
		}
	}
	return checkFlagAt(m, src, answers, atOne)
}

// checkFlagAt is fitCheckFlag for the points of the answers, the first
// of them taken.
func checkFlagAt(m *model.Model, src source.Source, answers []record.Point, atOne []string) string {
	for _, p := range answers {
		grid := m.GridValues()
		var ones []string
		for i, d := range p {
			if slices.Contains(grid[i][:], d.Value) {
				return ""
			}
			if d.Value == 1 && slices.Contains(atOne, d.Name) {
				ones = append(ones, d.Name+" = 1")
			}
		}
		flag := checkFlag(src, p)
		if len(ones) == 0 || flag == "" {
			return ""
		}
		return flag + " records " + doc.AndList(ones)
	}
	return ""
}

// parseBudgets reads each --budget, perhaps a list separated by commas.
func parseBudgets(args []string) ([]poly.Rat, error) {
	var out []poly.Rat
	for _, a := range args {
		for _, s := range strings.Split(a, ",") {
			if strings.TrimSpace(s) == "" {
				// Quoted as typed: the item itself shows nothing.
				return nil, usagef("--budget %q: an empty item: expected a size such as 80GiB, or several joined by commas (24GiB,40GiB)", a)
			}
			b, err := doc.ParseSize(s)
			if err != nil {
				return nil, usagef("--budget %s: %v", strings.TrimSpace(s), err)
			}
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, usagef("fit needs --budget SIZE, such as --budget 80GiB")
	}
	return out, nil
}

// underBudget returns err, a fit's failure under budget b, naming b
// when there are several budgets, as the notes under the table do.
func underBudget(err error, b poly.Rat, budgets []poly.Rat, units doc.Units) error {
	if len(budgets) < 2 {
		return err
	}
	return fmt.Errorf("under %s, %w", budgetName(b, units), err)
}

// fitText writes the answers as a table, one row per budget, then what the
// table cannot say: budgets no value or every value fits, values below an
// answer that do not fit.
func fitText(m *model.Model, fits []*model.Fit, units doc.Units, below string) string {
	var answers []fitAnswer
	for _, f := range fits {
		a := fitAnswer{f: f}
		if f.At != nil {
			a.at = &f.At.Needs
		}
		if f.BeyondAt != nil {
			a.beyond = &f.BeyondAt.Needs
		}
		if f.Past != nil {
			a.past = &f.Past.Needs
			if f.Past.Holder >= 0 {
				// Numbered as in a recording one past the answer, which
				// differs from the model's when a dimension counts blocks.
				a.binds = f.Past.PeakOp
				a.where = m.WhereAt(f.Past.Op, f.Past.Point.Map())
			}
		}
		answers = append(answers, a)
	}
	f0 := fits[0]
	at := ""
	if len(f0.Fixed) > 0 {
		at = " at " + f0.Fixed.String()
	}
	title := fmt.Sprintf("memsym fit: %s, along %s%s: the largest %s whose needs (the inputs and the peak) fit the budget:", entryName(m.Header()), f0.Along, at, f0.Along)
	for _, l := range []string{negativeLine(m), below} {
		if l != "" {
			title = title + "\n" + strings.TrimSuffix(l, "\n")
		}
	}
	return fitTable(withUnchecked(title, m), answers, fitNeeds, units)
}

// fitAnswer is one budget's answer as a table row says it: the fit, the
// needs at the answer and one past it, and the operation (numbered as in a
// recording one past the answer, 0 for none) of what holds the peak there,
// named by where.
type fitAnswer struct {
	f         *model.Fit
	at, past  *poly.Rat
	beyond    *poly.Rat // at f.Beyond(), when not 0
	binds     int
	where     string
	bindsNote string // said after where, such as "in the backward phase"
}

// bindsCell names what binds one past a's answer: the operation holding
// the peak there; "no operations" for a program without any, where the
// inputs alone bind; nothing where the model does not give the needs.
func bindsCell(a fitAnswer) string {
	switch {
	case a.binds > 0:
		return fmt.Sprintf("operation %d", a.binds)
	case a.past != nil:
		return "no operations"
	}
	return ""
}

// fitWords say what is fitted: the needs, or a step's peak.
type fitWords struct {
	what  string // "needs", as a table's heading says it
	needs string // "needs", as a point does
	grow  string // "the needs do not grow"
	bumpy string // "the needs are not monotone"
	fall  string // "the needs fall"
	most  string // "the needs are at most"
	large string // "the needs are larger there"
}

var (
	fitNeeds = fitWords{what: "needs", needs: "needs", grow: "the needs do not grow", bumpy: "the needs are not monotone",
		fall: "the needs fall", most: "the needs are at most", large: "the needs are larger there"}
	fitStepWords = fitWords{what: "step's peak", needs: "peaks at", grow: "the step's peak does not grow", bumpy: "the step's peak is not monotone",
		fall: "the step's peak falls", most: "the step's peak is at most", large: "the step's peak is larger there"}
)

// runsFrom returns the least value of along at which src's program runs,
// the other dimensions at fixed, where that is above the least value the
// model holds for (strided-conv's N ≥ K); else 0. A fit answers from it.
func runsFrom(m *model.Model, src source.Source, along string, fixed map[string]int64) int64 {
	return m.RunsTo(src, along, m.Base(fixed, nil)).First
}

// needsCells writes needs as a table's two cells, bytes and their units,
// the units with the digits it takes to fall on the needs' side of the
// budget and of the budget's figure in the row, whose needs are row, and
// no fewer than that figure's (doc.Units.ApproxAmong); for needs the model
// does not give (nil: some buffer's bytes are negative there, the
// polynomials not the program's), says so.
func needsCells(x *poly.Rat, budget poly.Rat, units doc.Units, row ...*poly.Rat) []string {
	if x == nil {
		return []string{"not the program's", ""}
	}
	a := units.ApproxAmong(*x, budget, present(row)...)
	if a != "" {
		a = "(" + a + ")"
	}
	return []string{doc.ByteCount(*x), a}
}

// needsWords writes needs in prose, as needsCells does in a table.
func needsWords(x *poly.Rat, budget poly.Rat, units doc.Units) string {
	if x == nil {
		return "what the polynomials do not give (some buffer's bytes are negative there)"
	}
	return units.BytesBeside(*x, budget)
}

// fitTable writes the answers under title as fitText says.
func fitTable(title string, answers []fitAnswer, w fitWords, units doc.Units) string {
	var b strings.Builder
	dim := answers[0].f.Along
	fmt.Fprintf(&b, "%s\n", title)
	rows := [][]string{{"  budget", "largest " + dim, w.what + " at " + dim, "", w.what + " at " + dim + " + 1", "", "binds"}}
	var ops []int
	var wheres []string
	var notes []string
	// Whether every budget with a largest value above the least has no
	// gaps below it, down to the least (the model's, or where a bundled
	// program starts to run: the same value for them all, the line being
	// one): then one line says so for them all, naming them unless they
	// are every budget asked (after a budget that nothing fits, a line
	// for all would read as speaking of it too), else each says so for
	// itself.
	everySmaller, anyUpTo := true, false
	var from int64
	var upTo []string
	for _, a := range answers {
		if least := leastOf(a.f); a.f.Kind == model.FitsUpTo && a.f.Largest > least {
			everySmaller = everySmaller && len(a.f.Gaps) == 0 && len(a.f.NegativeWithin(a.f.Largest)) == 0 && (!anyUpTo || least == from)
			anyUpTo, from = true, least
			upTo = append(upTo, budgetLabel(a.f.Budget, units, a.at, a.past))
		}
	}
	under := ""
	if len(upTo) < len(answers) {
		under = "under " + doc.AndList(upTo) + ", "
	}
	// The budgets whose answers stop where some buffer's bytes turn
	// negative, by where, said once for them all.
	stops := map[int64][]string{}
	var stopsAt []int64
	for _, a := range answers {
		f := a.f
		budget := budgetLabel(f.Budget, units, a.at, a.past)
		row := []string{"  " + budget}
		least := leastOf(f)
		downTo := ""
		if least > 1 {
			downTo = fmt.Sprintf(" down to %d", least)
		}
		gaps := f.Gaps
		switch f.Kind {
		case model.FitsUpTo:
			row = append(row, fmt.Sprint(f.Largest))
			row = append(row, needsCells(a.at, f.Budget, units, a.at, a.past)...)
			row = append(row, needsCells(a.past, f.Budget, units, a.at, a.past)...)
			row = append(row, bindsCell(a))
			if a.binds > 0 && !containsInt(ops, a.binds) {
				ops = append(ops, a.binds)
				wheres = append(wheres, a.where+a.bindsNote)
			}
			holes := f.NegativeWithin(f.Largest)
			switch {
			case len(gaps) == 0 && len(holes) > 0:
				notes = append(notes, fmt.Sprintf("under %s, every %s smaller than %d%s fits too but %s, where some buffer's bytes are negative", budget, dim, f.Largest, downTo, spansWords(dim, holes)))
			case len(gaps) == 0 && !everySmaller && f.Largest > least:
				notes = append(notes, fmt.Sprintf("under %s, every %s smaller than %d%s fits too", budget, dim, f.Largest, downTo))
			}
			if x := f.Beyond(); x > 0 {
				if a.beyond != nil {
					notes = append(notes, fmt.Sprintf("under %s, %s = %s, just past the answer, are not the program's, and %s = %d %s %s, more than the budget", budget, dim, spanString(f.Largest+1, x-1), dim, x, w.needs, units.BytesBeside(*a.beyond, f.Budget)))
				} else {
					notes = append(notes, fmt.Sprintf("under %s, %s = %s, just past the answer, are not the program's, and %s = %d does not fit", budget, dim, spanString(f.Largest+1, x-1), dim, x))
				}
			}
			if f.StopsAtNegative() {
				if _, ok := stops[f.Largest+1]; !ok {
					stopsAt = append(stopsAt, f.Largest+1)
				}
				stops[f.Largest+1] = append(stops[f.Largest+1], budget)
			}
		case model.FitsNone:
			row = append(row, "none", "", "", "", "", "")
			// Where some buffer's bytes are negative above the least value,
			// what is said of every value leaves those out (the line on
			// them is the first note).
			none, every, anyOf := fmt.Sprintf("no %s ≥ %d", dim, least), fmt.Sprintf("every %s ≥ %d", dim, least), fmt.Sprintf("any %s ≥ %d", dim, least)
			if len(f.NegativeWithin(math.MaxInt64)) > 0 {
				none, every, anyOf = none+" outside those", every+" outside those", anyOf+" outside those"
			}
			switch {
			case f.Nowhere():
				notes = append(notes, fmt.Sprintf("no %s ≥ %d is the program's on this line: some buffer's bytes are negative at every one, so nothing is said to fit %s", dim, least, budget))
			case f.RunsFrom > 0 && f.LeastAt < f.RunsFrom:
				// What the polynomials give below where the program runs
				// is no figure of the program's.
				notes = append(notes, fmt.Sprintf("%s fits %s", none, budget))
			case f.LeastAt == least:
				notes = append(notes, fmt.Sprintf("%s fits %s: %s = %d %s %s", none, budget, dim, least, w.needs, needsWords(a.past, f.Budget, units)))
			case f.LeastAt > 0:
				notes = append(notes, fmt.Sprintf("%s fits %s: %s = %d %s %s, the least of %s", none, budget, dim, f.LeastAt, w.needs, units.BytesBeside(f.LeastNeeds, f.Budget), anyOf))
			default:
				notes = append(notes, fmt.Sprintf("%s fits %s: %s = %d %s %s, and %s more than %s", none, budget, dim, least, w.needs, needsWords(a.past, f.Budget, units), every, units.Bytes(f.Budget)))
			}
		case model.FitsFrom:
			switch {
			case f.Bounded:
				row = append(row, "every")
				notes = append(notes, fmt.Sprintf("every %s fits %s: %s along %s, %s", dim, budget, w.grow, dim, needsWords(a.at, f.Budget, units)))
			case f.From <= least:
				row = append(row, "every")
				switch {
				case f.Falls:
					notes = append(notes, fmt.Sprintf("every %s fits %s: %s along %s, from %s at %s = %d", dim, budget, w.fall, dim, needsWords(a.at, f.Budget, units), dim, least))
				case f.MostAt > 0:
					notes = append(notes, fmt.Sprintf("every %s fits %s: %s %s, at %s = %d", dim, budget, w.most, units.BytesBeside(f.MostNeeds, f.Budget), dim, f.MostAt))
				default:
					notes = append(notes, fmt.Sprintf("every %s fits %s", dim, budget))
				}
			case len(gaps) == 1 && gaps[0].From == least && gaps[0].To == f.From-1:
				// Nothing below From fits: no gap to list apart.
				row = append(row, fmt.Sprintf("from %d", f.From))
				why := ""
				if f.Falls {
					why = fmt.Sprintf("%s along %s, and ", w.fall, dim)
				}
				notes = append(notes, fmt.Sprintf("every %s from %d fits %s and no smaller %s%s does: %s%s = %d %s %s", dim, f.From, budget, dim, downTo, why, dim, f.From-1, w.needs, needsWords(a.past, f.Budget, units)))
				gaps = nil
			default:
				row = append(row, fmt.Sprintf("from %d", f.From))
				notes = append(notes, fmt.Sprintf("every %s from %d fits %s; %s = %d %s %s", dim, f.From, budget, dim, f.From-1, w.needs, needsWords(a.past, f.Budget, units)))
			}
			row = append(row, "", "", "", "", "")
		}
		if len(gaps) > 0 {
			// Some value fits past a gap, and before it too or the answer's
			// next does not: the needs rise and fall.
			var spans []string
			for _, g := range gaps {
				spans = append(spans, spanString(g.From, g.To))
			}
			verb := "do not fit"
			if len(gaps) == 1 && gaps[0].From == gaps[0].To {
				verb = "does not fit"
			}
			why := w.bumpy + " along " + dim
			switch {
			case f.Falls: // the values past the answer are not the program's
				why = w.fall + " along " + dim
			case len(gaps) == 1 && gaps[0].From == least && (f.StopsAtNegative() || f.Kind == model.FitsFrom):
				// Values fit above a first stretch that does not, and the
				// budget bounds nothing above: the needs may only fall, as
				// to a constant, which is no rise and fall.
				why = w.large
			}
			notes = append(notes, fmt.Sprintf("under %s, %s = %s %s: %s", budget, dim, strings.Join(spans, ", "), verb, why))
		}
		rows = append(rows, row)
	}
	for _, x := range stopsAt {
		notes = append(notes, fmt.Sprintf("under %s, the answer stops where some buffer's bytes turn negative, at %s = %d, not where the budget is passed: whether larger values fit is not known", doc.AndList(stops[x]), dim, x))
	}
	if neg := answers[0].f.Negative; len(neg) > 0 { // the same line for every budget
		notes = append([]string{fmt.Sprintf("some buffer's bytes are negative at %s: the polynomials are not the program's there, and no value there is said to fit or not", spansWords(dim, neg))}, notes...)
	}
	b.WriteString(alignColumns(dropEmptyColumns(rows, "lrrlrll")))
	for _, where := range wheres {
		fmt.Fprintf(&b, "binds at %s + 1: %s\n", dim, where)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "%s\n", n)
	}
	switch {
	case everySmaller && anyUpTo && from > 1:
		fmt.Fprintf(&b, "%severy smaller %s down to %d fits too\n", under, dim, from)
	case everySmaller && anyUpTo:
		fmt.Fprintf(&b, "%severy smaller %s fits too\n", under, dim)
	}
	return b.String()
}

// spansWords writes spans of values of dim: "T = 5 to 7 and T ≥ 41".
func spansWords(dim string, spans []model.Span) string {
	var out []string
	for _, g := range spans {
		if g.To == math.MaxInt64 {
			out = append(out, fmt.Sprintf("%s ≥ %d", dim, g.From))
		} else {
			out = append(out, dim+" = "+spanString(g.From, g.To))
		}
	}
	return doc.AndList(out)
}

// besideText says what a fit's figures leave out, at the end of every fit
// but in JSON: an answer is exact to the byte, and a budget is often a
// device's whole memory. A training step's leave out what the loop keeps
// in its own variables; a PyTorch model's recorded without --free release
// free each temporary after its last use, as eager PyTorch does not.
func besideText(src source.Source, step bool) string {
	more := "the allocator's rounding and cache, a CUDA context, libraries' workspaces"
	if step {
		more = "what the training loop keeps in its own variables, such as the model's output through the backward; " + more
	}
	s := fmt.Sprintf("the figures are the recorded buffers' bytes alone: a run holds more beside them (%s), so leave room for it\n", more)
	if t, ok := src.(*source.Torch); ok && !t.FreesOnRelease() {
		s += "the recording frees each temporary after its last use, as a compiler does; eager PyTorch holds a local until it goes: --torch '... --free release' records that (docs/torch.md)\n"
	}
	return s
}

// leastOf returns the least value along f's line that what is said of the
// values below an answer speaks of: the least the model holds for (2 for a
// block count whose last block stands apart), or where a bundled program
// starts to run.
func leastOf(f *model.Fit) int64 { return max(f.ProgramFrom(), f.RunsFrom, 1) }

// budgetName writes a budget as its unit says it (doc.Units.Budget).
func budgetName(x poly.Rat, units doc.Units) string { return units.Budget(x) }

// budgetLabel is budgetName for a budget written beside needs
// (doc.Units.BudgetBeside); nil needs are left out.
func budgetLabel(budget poly.Rat, units doc.Units, needs ...*poly.Rat) string {
	return units.BudgetBeside(budget, present(needs)...)
}

// present returns the needs that are not nil.
func present(needs []*poly.Rat) []poly.Rat {
	var out []poly.Rat
	for _, x := range needs {
		if x != nil {
			out = append(out, *x)
		}
	}
	return out
}

// needsOf returns the needs of t, nil for none.
func needsOf(t *model.Terms) *poly.Rat {
	if t == nil {
		return nil
	}
	return &t.Needs
}

// fitCheckNote says how a recording that confirms an answer, its needs
// the predicted ones on the predicted side, differs from the model all the
// same: its operations (as PyTorch's at a size of 1 differ from those of a
// grid from 2), or where its peak lies. The answer rests on the needs
// alone, so this is a note, not a contradiction.
func fitCheckNote(c *model.FitCheck, w fitWords) string {
	where := ""
	if c.PeakOp != c.PredictedOp {
		where = fmt.Sprintf(", its peak at operation %d, not %d", c.PeakOp, c.PredictedOp)
	}
	if c.Differs == "" {
		return fmt.Sprintf("  note: the recording at %s has%s; the answer rests on the %s, as predicted\n", c.Point, strings.TrimPrefix(where, ","), w.what)
	}
	// What differs, without the grid's advice, which speaks of a grid
	// refused, not of a recording beside a model.
	differs, _, _ := strings.Cut(c.Differs, "; "+interpWhyOps)
	return fmt.Sprintf("  note: the recording at %s has operations the model's grid did not have%s; the answer rests on the %s, as predicted: %s\n", c.Point, where, w.what, differs)
}

// interpWhyOps begins the advice a grid refused for operations that
// differ ends with.
const interpWhyOps = "a dimension that changes the operations"

// fitConfirmText says, for each recording made to confirm a fit, what it
// needs and whether that is as predicted.
func fitConfirmText(f *model.Fit, checks []model.FitCheck, w fitWords, units doc.Units) string {
	var b strings.Builder
	var predicted []*poly.Rat
	for i := range checks {
		predicted = append(predicted, &checks[i].Predicted)
	}
	budget := budgetLabel(f.Budget, units, predicted...)
	for i := range checks {
		c := &checks[i]
		if c.Unrecorded != nil {
			fmt.Fprintf(&b, "not recorded at %s, so not confirmed there: %v\n", c.Point, c.Unrecorded)
			continue
		}
		// The recording's side of the budget, which a recording that
		// contradicts the model may not share with the prediction.
		side := "fits"
		if c.Needs.Cmp(f.Budget) > 0 {
			side = "does not fit"
		}
		lead := "confirmed"
		verdict := "as predicted"
		if !c.OK(f.Budget) {
			var diffs []string
			if !c.Needs.Equal(c.Predicted) {
				diffs = append(diffs, "the model predicts "+units.BytesAmong(c.Predicted, f.Budget, present(predicted)...))
			}
			if c.PeakOp != c.PredictedOp {
				diffs = append(diffs, fmt.Sprintf("the model puts the peak at operation %d", c.PredictedOp))
			}
			if (c.Needs.Cmp(f.Budget) <= 0) != c.Fits {
				diffs = append(diffs, "it falls on the other side of the budget")
			}
			if c.Differs != "" {
				diffs = append(diffs, "the recording is not the model's there: "+c.Differs)
			}
			lead, verdict = "checked", "NOT as predicted: "+strings.Join(diffs, "; ")
		}
		peak := fmt.Sprintf("the peak at operation %d", c.PeakOp)
		if c.PeakOp == 0 {
			peak = "no operations"
		}
		fmt.Fprintf(&b, "%s at %s: recorded %s %s, %s, %s %s, %s\n",
			lead, c.Point, w.what, units.BytesAmong(c.Needs, f.Budget, present(predicted)...), peak, side, budget, verdict)
		if c.Noted(f.Budget) {
			b.WriteString(fitCheckNote(c, w))
		}
	}
	return b.String()
}
