package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
)

func init() {
	register(&command{
		name:  "fit",
		short: "find the largest value of a dimension whose needs fit a memory budget, exactly",
		run:   fitCmd,
	})
}

const fitUsage = `--budget 80GiB[,40GiB,...] --along T [--at B=8] [--confirm] [--units iec|si|bytes] [--json] [source flags] [R1.jsonl ...]

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
at each answer and one past it (with --program or --recorder) and checks
that the recorded needs are the model's and fall on the predicted side of
the budget.
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
		return usagef("--confirm records new points: use it with --program or --recorder")
	}
	m, src, err := buildModel(&sf, files, stderr)
	defer src.Close()
	if err != nil {
		return err
	}
	if !contains(m.Vars, *along) {
		if len(m.Vars) == 0 {
			return usagef("--along %s: the program has no dimensions", *along)
		}
		return usagef("--along %s: no dimension %s (the dimensions are %s)", *along, *along, strings.Join(m.Vars, ", "))
	}
	fixed := at.values()
	if _, err := m.Line(*along, fixed); err != nil {
		return usagef("%s: %v", strings.TrimSpace("--at "+at.String()), err)
	}
	var fits []*model.Fit
	var checks [][]model.FitCheck
	bad := 0
	for _, b := range budgets {
		f, err := m.Fit(*along, fixed, b)
		if err != nil {
			return err
		}
		fits = append(fits, f)
		if !*confirm {
			continue
		}
		c, err := m.ConfirmFit(context.Background(), src, f)
		if err != nil {
			return err
		}
		for i := range c {
			if !c[i].OK(b) {
				bad++
			}
		}
		checks = append(checks, c)
	}
	if *asJSON {
		out := &model.FitJSON{Entry: m.Header().Entry, Along: *along, Fixed: model.OrderedPoint(fits[0].Fixed)}
		if out.Fixed == nil {
			out.Fixed = model.OrderedPoint{}
		}
		for i, f := range fits {
			var c []model.FitCheck
			if *confirm {
				c = checks[i]
			}
			out.Budgets = append(out.Budgets, m.BudgetFitJSON(f, c))
		}
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
	} else {
		io.WriteString(stdout, fitText(m, fits, *units))
		for i := range checks {
			io.WriteString(stdout, fitConfirmText(fits[i], checks[i], *units))
		}
	}
	if bad > 0 {
		return fmt.Errorf("the recordings contradict the fit at %s", doc.Plural(bad, "point", "points"))
	}
	return nil
}

// parseBudgets reads each --budget, perhaps a list separated by commas.
func parseBudgets(args []string) ([]poly.Rat, error) {
	var out []poly.Rat
	for _, a := range args {
		for _, s := range strings.Split(a, ",") {
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

// fitText writes the answers as a table, one row per budget, then what the
// table cannot say: budgets no value or every value fits, values below an
// answer that do not fit.
func fitText(m *model.Model, fits []*model.Fit, units doc.Units) string {
	var b strings.Builder
	f0 := fits[0]
	dim := f0.Along
	at := ""
	if len(f0.Fixed) > 0 {
		at = " at " + f0.Fixed.String()
	}
	fmt.Fprintf(&b, "memsym fit: %s, along %s%s: the largest %s whose needs (the inputs and the peak) fit the budget:\n", entryName(m.Header()), dim, at, dim)
	rows := [][]string{{"  budget", "largest " + dim, "needs at " + dim, "", "needs at " + dim + " + 1", "", "binds"}}
	var ops []int
	var notes []string
	everySmaller := true
	for _, f := range fits {
		budget := budgetName(f.Budget, units)
		row := []string{"  " + budget}
		switch f.Kind {
		case model.FitsUpTo:
			row = append(row, fmt.Sprint(f.Largest))
			row = append(row, doc.Decimal(f.At.Needs)+" bytes", approxCell(f.At.Needs, units))
			row = append(row, doc.Decimal(f.Past.Needs)+" bytes", approxCell(f.Past.Needs, units))
			row = append(row, fmt.Sprintf("operation %d", m.Cands[f.Past.Holder].Op))
			ops = appendOp(ops, m.Cands[f.Past.Holder].Op)
		case model.FitsNone:
			row = append(row, "none", "", "", "", "", "")
			notes = append(notes, fmt.Sprintf("no %s ≥ 1 fits %s: %s = 1 needs %s", dim, budget, dim, units.Bytes(f.Past.Needs)))
		case model.FitsFrom:
			row = append(row, "every", "", "", "", "", "")
			switch {
			case f.Bounded:
				notes = append(notes, fmt.Sprintf("every %s fits %s: the needs do not grow along %s, %s", dim, budget, dim, units.Bytes(f.At.Needs)))
			case f.From == 1:
				notes = append(notes, fmt.Sprintf("every %s fits %s: the needs do not grow along %s beyond %s at %s = 1", dim, budget, dim, units.Bytes(f.At.Needs), dim))
			default:
				notes = append(notes, fmt.Sprintf("every %s ≥ %d fits %s; %s = %d needs %s", dim, f.From, budget, dim, f.From-1, units.Bytes(f.Past.Needs)))
			}
		}
		if len(f.Gaps) > 0 {
			everySmaller = false
			var spans []string
			for _, g := range f.Gaps {
				spans = append(spans, spanString(g.From, g.To))
			}
			notes = append(notes, fmt.Sprintf("under %s, %s = %s do not fit: the needs are not monotone along %s", budget, dim, strings.Join(spans, ", "), dim))
		}
		rows = append(rows, row)
	}
	b.WriteString(alignColumns(dropEmptyColumns(rows, "lrrlrll")))
	for _, op := range ops {
		fmt.Fprintf(&b, "binds at %s + 1: %s\n", dim, m.Where(op))
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "%s\n", n)
	}
	if everySmaller {
		for _, f := range fits {
			if f.Kind == model.FitsUpTo {
				fmt.Fprintf(&b, "every smaller %s fits too\n", dim)
				break
			}
		}
	}
	return b.String()
}

// budgetName writes a budget as its unit says it, "80 GiB", when that is
// exact, else with its bytes: "80000000000 bytes (74.5 GiB)".
func budgetName(x poly.Rat, units doc.Units) string {
	if a := units.Approx(x); a != "" {
		if back, err := doc.ParseSize(strings.ReplaceAll(a, " ", "")); err == nil && back.Equal(x) {
			return a
		}
	}
	return units.Bytes(x)
}

func appendOp(ops []int, op int) []int {
	if containsInt(ops, op) {
		return ops
	}
	return append(ops, op)
}

// fitConfirmText says, for each recording made to confirm a fit, what it
// needs and whether that is as predicted.
func fitConfirmText(f *model.Fit, checks []model.FitCheck, units doc.Units) string {
	var b strings.Builder
	for i := range checks {
		c := &checks[i]
		side := "fits"
		if !c.Fits {
			side = "does not fit"
		}
		verdict := "as predicted"
		if !c.OK(f.Budget) {
			var diffs []string
			if !c.Needs.Equal(c.Predicted) {
				diffs = append(diffs, "the model predicts "+units.Bytes(c.Predicted))
			}
			if c.PeakOp != c.PredictedOp {
				diffs = append(diffs, fmt.Sprintf("the model puts the peak at operation %d", c.PredictedOp))
			}
			if (c.Needs.Cmp(f.Budget) <= 0) != c.Fits {
				diffs = append(diffs, "it falls on the other side of the budget")
			}
			verdict = "NOT as predicted: " + strings.Join(diffs, "; ")
		}
		fmt.Fprintf(&b, "confirmed at %s: recorded needs %s, the peak at operation %d, %s %s, %s\n",
			c.Point, units.Bytes(c.Needs), c.PeakOp, side, budgetName(f.Budget, units), verdict)
	}
	return b.String()
}
