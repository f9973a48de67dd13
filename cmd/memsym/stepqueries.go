package main

// eval --step and fit --step: the training step's terms at a point, and
// the largest value of a dimension whose step's peak fits a budget, from
// the step's polynomials (model.Step).

import (
	"context"
	"fmt"
	"io"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/programs"
	"memsym/record"
	"memsym/source"
)

// stepModel is a step's model under one remat, its source left open for
// recordings that confirm what it says.
type stepModel struct {
	name string // "store", "recompute", or "step" for recordings of a step
	o    programs.StepOptions
	st   *model.Step
	src  source.Source
}

// openStepModels builds the step's model under each remat asked for (a
// bundled program's), or of the recordings of a step; the caller calls
// done, which closes their sources, also when err is not nil. With asJSON,
// which prints one step, --remat both is refused before anything is built.
func openStepModels(s *stepFlags, sf *sourceFlags, files []string, stderr io.Writer, asJSON bool) (models []stepModel, done func(), err error) {
	done = func() {
		for _, m := range models {
			m.src.Close()
		}
	}
	if err := s.check(sf.program == ""); err != nil {
		return nil, done, err
	}
	opts := []programs.StepOptions{{}}
	if sf.program != "" {
		if opts, err = s.options(); err != nil {
			return nil, done, err
		}
	}
	if asJSON && len(opts) > 1 {
		return nil, done, usagef("--json gives one step: with --remat both, ask for store and recompute apart")
	}
	for _, o := range opts {
		st, src, err := openStepModel(sf, files, stderr, o)
		if err != nil {
			src.Close()
			return models, done, err
		}
		name := "step"
		if sf.program != "" {
			name = o.Remat.String()
		}
		models = append(models, stepModel{name: name, o: o, st: st, src: src})
	}
	return models, done, nil
}

// trainedWords says how a bundled program's step was made: ", trained with
// adamw, the activations stored"; "" for recordings of a step.
func trainedWords(sf *sourceFlags, models []stepModel) string {
	if sf.program == "" {
		return ""
	}
	o := models[0].o
	acts := "the activations " + map[programs.Remat]string{programs.Store: "stored", programs.Recompute: "recomputed block by block"}[o.Remat]
	if len(models) > 1 {
		acts = "the activations stored and recomputed block by block"
	}
	// The types (--types) are the recordings' realization, which the
	// entry's name already gives ("in f64; params=bf16").
	return ", trained with " + o.Optimizer.String() + ", " + acts
}

// evalStep runs eval --step: the step's terms at the point at, side by
// side for --remat both.
func evalStep(stdout, stderr io.Writer, s *stepFlags, sf *sourceFlags, files []string, at assignments, units doc.Units, asJSON bool) error {
	models, done, err := openStepModels(s, sf, files, stderr, asJSON)
	defer done()
	if err != nil {
		return err
	}
	var cols []stepColumn
	var terms *model.StepTerms
	for _, m := range models {
		p, err := m.st.PointOf(at.values())
		if err != nil {
			return usagef("--at %s: %v", at.String(), err)
		}
		if err := source.NotRunning(m.src, p); err != nil {
			return usagef("--at %s: %v", at.String(), err)
		}
		if terms, err = m.st.Eval(p); err != nil {
			return err
		}
		if asJSON {
			out := m.st.EvalJSON(terms)
			out.UnrecordedAtOne = m.st.UnrecordedAtOne(m.src, p, nil)
			return writeJSON(stdout, out)
		}
		col := modelColumn(m.name, m.st, terms)
		col.formula = terms.Peak.Poly.String()
		cols = append(cols, col)
	}
	h := models[0].st.Header()
	title := fmt.Sprintf("memsym eval --step: %s at %s%s%s, from the polynomials (in bytes); nothing recorded:",
		entryName(h), pointOrNone(terms.Point.String()), constsString(h), trainedWords(sf, models))
	if l := belowLine(models[0].st.UnrecordedAtOne(models[0].src, terms.Point, nil), checkFlag(models[0].src, terms.Point)); l != "" {
		title += "\n" + strings.TrimSuffix(l, "\n")
	}
	_, err = io.WriteString(stdout, stepText(withUnchecked(title, models[0].st.Model), cols, units))
	return err
}

// fitStep runs fit --step: for each budget, the largest value of along
// whose step's peak fits it, under each remat asked for, confirmed by
// recordings with confirm.
func fitStep(stdout, stderr io.Writer, s *stepFlags, sf *sourceFlags, files []string, budgets []poly.Rat, along string, at assignments, confirm, asJSON bool, units doc.Units) error {
	models, done, err := openStepModels(s, sf, files, stderr, asJSON)
	defer done()
	if err != nil {
		return err
	}
	fixed := at.values()
	bad, failed := 0, 0
	for i, m := range models {
		st := m.st
		if err := checkAlong(st.Model, m.src, along, at); err != nil {
			return err
		}
		var answers []fitAnswer
		var fits []*model.StepFit
		var checks [][]model.FitCheck
		var limits []string // per budget: where the answer lies past the program's sizes
		var pasts []string  // per budget: where one past the answer does
		var belows []string // per budget: where below the answer the program does not run
		from := runsFrom(st.Model, m.src, along, fixed)
		for _, b := range budgets {
			f, err := st.FitFrom(along, fixed, b, from)
			if err != nil {
				return underBudget(err, b, budgets, units)
			}
			fits = append(fits, f)
			answers = append(answers, stepAnswer(st, f))
			limits = append(limits, st.Beyond(m.src, f.Fit, st.PeakFits(b)))
			pasts = append(pasts, st.PastBeyond(m.src, f.Fit))
			belows = append(belows, st.Below(m.src, f.Fit))
			if !confirm {
				continue
			}
			if limits[len(limits)-1] != "" {
				checks = append(checks, nil) // the program cannot be recorded there
				continue
			}
			c, err := st.ConfirmFit(context.Background(), m.src, f)
			if err != nil {
				return err
			}
			bad += model.Contradicting(c, b)
			failed += model.UnrecordedChecks(c)
			checks = append(checks, c)
		}
		atOne := st.UnrecordedAtOne(m.src, fits[0].Fit.Fixed, []string{along})
		if asJSON {
			out := &model.FitJSON{Entry: st.Header().Entry, Along: along, Fixed: model.OrderedPoint(fits[0].Fit.Fixed), Checked: st.CheckedJSON(), Domain: st.DomainJSON(),
				AtOneJSON: model.AtOneJSON{UnrecordedAtOne: atOne}}
			if out.Fixed == nil {
				out.Fixed = model.OrderedPoint{}
			}
			for k, f := range fits {
				var c []model.FitCheck
				if confirm {
					c = checks[k]
				}
				bj := st.BudgetFitJSON(f, c)
				bj.NotRunning, bj.PastNotRunning = limits[k], pasts[k]
				out.Budgets = append(out.Budgets, bj)
			}
			if err := writeJSON(stdout, out); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			io.WriteString(stdout, "\n")
		}
		where := ""
		if f0 := fits[0].Fit; len(f0.Fixed) > 0 {
			where = " at " + f0.Fixed.String()
		}
		h := st.Header()
		title := fmt.Sprintf("memsym fit --step: %s%s%s, along %s%s: the largest %s whose training step's peak fits the budget:",
			entryName(h), constsString(h), trainedWords(sf, models[i:i+1]), along, where, along)
		var points []record.Point
		for _, f := range fits {
			if f.At != nil {
				points = append(points, f.At.Point)
			}
		}
		for _, l := range []string{negativeLine(st.Model), belowLine(atOne, checkFlagAt(st.Model, m.src, points, atOne))} {
			if l != "" {
				title += "\n" + strings.TrimSuffix(l, "\n")
			}
		}
		io.WriteString(stdout, fitTable(withUnchecked(title, st.Model), answers, fitStepWords, units))
		var names []string
		for _, a := range answers {
			names = append(names, budgetLabel(a.f.Budget, units, a.at, a.past))
		}
		writeNotes(stdout, limits, names, notConfirmed(confirm))
		writeNotes(stdout, pasts, names, "")
		writeFirstNote(stdout, belows)
		for k := range checks {
			if checks[k] != nil {
				io.WriteString(stdout, fitConfirmText(fits[k].Fit, checks[k], fitStepWords, units))
			}
		}
		if i == len(models)-1 {
			io.WriteString(stdout, besideText(models[0].src, true))
		}
	}
	return confirmError("fit", bad, failed)
}

// stepAnswer is a step's fit as fitTable writes it: the step's peak at
// the answer and one past it, and where it is one past it.
func stepAnswer(st *model.Step, f *model.StepFit) fitAnswer {
	a := fitAnswer{f: f.Fit}
	if f.At != nil {
		a.at = &f.At.Peak.Bytes
	}
	if f.BeyondAt != nil {
		a.beyond = &f.BeyondAt.Peak.Bytes
	}
	if f.Past != nil {
		a.past = &f.Past.Peak.Bytes
		a.binds = f.Past.Peak.Op
		a.where = st.WhereAt(f.Past.Peak.ModelOp, f.Past.Point.Map())
		a.bindsNote = ", in the " + f.Past.Peak.Phase.String() + " phase"
	}
	return a
}

// checkAlong refuses a dimension m lacks to go along, --at values that do
// not give each other dimension one, and a line src's program runs nowhere
// on (model.RunsOnLine).
func checkAlong(m *model.Model, src source.Source, along string, at assignments) error {
	if err := checkLine(m.Vars, along, at, ""); err != nil {
		return err
	}
	if err := at.atLeastOne(); err != nil {
		return err
	}
	if _, err := m.Line(along, at.values()); err != nil {
		return usagef("%s: %v", strings.TrimSpace("--at "+at.String()), err)
	}
	if err := m.RunsOnLine(src, along, at.values()); err != nil {
		return usagef("%s: %v", strings.TrimSpace("--at "+at.String()), err)
	}
	return nil
}
