package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"memsym/doc"
	"memsym/explain"
	"memsym/internal/ending"
	"memsym/internal/outfile"
	"memsym/record"
	"memsym/reports"
	"memsym/source"
)

func init() {
	register(&command{
		name:  "explain",
		short: "write the memory chapter in Markdown, HTML, PDF and TikZ",
		run:   explainCmd,
	})
}

const explainUsage = `-o DIR [--format md,html,pdf,tikz,page] [--at B=2,T=16] [--along T] [--other-consts D=384] [--step [--remat both]] [source flags] [R1.jsonl ...]

Writes chapter 13 of a program's explanation: what is counted, the counts at
one point (with --at, or a bundled program's own point), the memory model as
polynomials with where each candidate holds the peak, confirmed by recordings
on both sides of each crossover, the crossovers at other constants, and how
it was checked. Every number is at one set of constants, --const's (or the
program's defaults); --other-consts adds the crossovers at another set.

With --step (a bundled program), a section on its training step: the
parameters, the optimizer's states, the gradient, the batch, what the
forward keeps, each phase's peak and the step's with its terms, at the
point and as polynomials, store and recompute side by side with --remat
both, where the kept activations outweigh the states, and the analytic
estimates (the 14P rule, Korthikanti et al.) beside the exact terms.

The files are named STEM.md, STEM.html, STEM.pdf, STEM-tikz.tex,
STEM-formulas.tex, STEM-FIGURE.svg/.tex and, with --format page,
STEM-page.html (--name sets STEM, chapter13 by default); files an earlier run wrote under the same stem and this one does
not are removed and listed, when they are as it wrote them (.STEM.sha256
lists each run's files): a user's own files are left alone, and so are
memsym's the user has changed, named on stderr. The files appear together or, if the run fails,
not at all (two runs writing into one directory take turns): a model that fresh recordings contradict, off the grid or at a
crossover, fails the run. STEM-formulas.tex defines a LaTeX macro for each formula and
number, named with --tex-prefix; a paper with two programs' chapters gives
each its own prefix, else pdflatex stops with an error naming --tex-prefix.
Characters of the recording's names that the LaTeX or the PDF cannot show
(Chinese, emoji; Cyrillic in LaTeX) are written as ? or empty boxes there,
and listed on the standard error.
`

func explainCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("explain", explainUsage, stderr)
	var sf sourceFlags
	sf.register(fs)
	out := fs.String("o", "", "the `directory` to write into (required)")
	formats := fs.String("format", strings.Join(reports.Names(), ","), "the `formats` to write, comma-separated")
	var at assignments
	fs.Var(&at, "at", "count at this point too: `B=2,T=16`")
	along := fs.String("along", "", "the `dimension` along which to say where each candidate holds the peak (default: the last one some candidate depends on)")
	var others constSets
	fs.Var(&others, "other-consts", "give the crossovers at these constants too: `D=384,H=6,L=6` (repeatable; with --program)")
	var verifyPoints countFlag
	fs.Var(&verifyPoints, "verify", "check the model at `n` more points off the grid, up to twice its largest values (memsym verify reaches further) (default 3 with --program, --recorder or --torch, 0 with files)")
	confirm := fs.Bool("confirm", true, "record on both sides of each crossover (with --program, --recorder or --torch)")
	name := fs.String("name", reports.DefaultStem, "the `stem` of the files' names")
	texPrefix := fs.String("tex-prefix", reports.DefaultTeXPrefix, "the `prefix` of the LaTeX macros' names, letters alone: each program's chapter in one paper needs its own")
	scale := fs.String("scale", "auto", "the candidates' figure's axes: `auto`, linear or log")
	var step stepFlags
	step.registerStep(fs, "add a section on the program's training step (a bundled program's): its terms at the point and as polynomials, store and recompute with --remat both, and the analytic estimates beside them (docs/step.md)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := step.check(false); err != nil {
		return err
	}
	if *out == "" {
		return usagef("explain needs -o DIR, the directory to write the chapter into")
	}
	opts := reports.Options{Stem: *name, TeXPrefix: *texPrefix}
	// Empty, Options would take the defaults: a user who gave one meant
	// something else.
	if *name == "" {
		return usagef("--name \"\": expected letters, digits and _, beginning with a letter or a digit")
	}
	if *texPrefix == "" {
		return usagef("--tex-prefix \"\": expected letters alone, as a LaTeX macro's name is")
	}
	if err := opts.Check(); err != nil {
		return usagef("%v", err)
	}
	var renderers []reports.Renderer
	wantPage := false
	asked := map[string]bool{} // a format asked for twice is written once
	for _, format := range strings.Split(*formats, ",") {
		format = strings.TrimSpace(format)
		if asked[format] {
			continue
		}
		asked[format] = true
		if format == "page" { // the interactive page: cmd/memsym/page.go
			wantPage = true
			continue
		}
		r, ok := reports.Lookup(format)
		if !ok {
			return usagef("--format %s: expected some of %s, page", format, strings.Join(reports.Names(), ", "))
		}
		renderers = append(renderers, r)
	}
	scales := map[string]explain.Scale{"auto": explain.ScaleAuto, "linear": explain.ScaleLinear, "log": explain.ScaleLog}
	sc, ok := scales[*scale]
	if !ok {
		return usagef("--scale %s: expected auto, linear or log", *scale)
	}
	if len(files) > 0 && len(at) > 0 {
		return usagef("--at records a point: use it with --program, --recorder or --torch (or count a file with memsym memory)")
	}
	if len(others) > 0 && sf.program == "" {
		return usagef("--other-consts records the program at other constants: use it with --program")
	}
	n := verifyPoints.n
	if !verifyPoints.set {
		n = 3
		if len(files) > 0 {
			n = 0
		}
	}
	if n > 0 && len(files) > 0 {
		return usagef("--verify records new points: use it with --program, --recorder or --torch")
	}
	if *confirm && len(files) > 0 && given(fs, "confirm") {
		return usagef("--confirm records new points: use it with --program, --recorder or --torch")
	}

	src, spec, err := sf.open(files, stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	r := &explain.Request{Source: src, Spec: spec, Along: *along, Verify: n, Confirm: *confirm, Scale: sc}
	if len(at) > 0 {
		r.At = at.point() // else none: recording files are counted at no point
	}
	if step.step {
		switch {
		case sf.torch != "":
			return usagef("--step records a bundled program's training step: a PyTorch module's is recorded by memsym_torch: put --step adamw inside --torch's quotes and leave out explain's --step")
		case sf.program == "":
			return usagef("--step records a bundled program's training step: use it with --program")
		}
		if r.Step, err = step.options(); err != nil {
			return err
		}
	}
	switch {
	case sf.program != "":
		r.Program = sf.program
	case len(files) > 0:
		r.Program = files[0]
	default:
		r.Program = "the recorder's program"
	}
	if p, ok := src.(*source.Program); ok {
		if len(at) == 0 {
			r.At = p.Default()
		}
		// A bundled program's chapter preset: the course GPT's chapter
		// gives the crossovers at the course's constants too.
		if ch := p.P.Chapter; ch != nil && len(others) == 0 && len(sf.consts) == 0 {
			others = append(others, ch.Consts)
		}
		for _, consts := range others {
			o, err := source.NewProgram(sf.program, consts)
			if err != nil {
				return err
			}
			r.Elsewhere = append(r.Elsewhere, o)
		}
	}
	if len(r.At) > 0 {
		if r.At, err = alignPoint(r.At, src, spec, len(at) > 0); err != nil {
			return err
		}
	}
	content, err := explain.Gather(context.Background(), r)
	if err != nil {
		return err
	}
	in, err := explain.Build(content)
	if err != nil {
		return err
	}
	if err := explain.Refuted(content, in); err != nil {
		return err
	}
	document := explain.Chapter(in)
	created := outfile.MissingDirs(*out) // a run that fails removes them again
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("-o %s: %w", *out, err)
	}
	// So does a signal that ends memsym: removed when empty, deepest first.
	forget := ending.OnEnd(func() {
		for _, d := range created {
			os.Remove(d)
		}
	})
	defer forget()
	// Another run writing into the same directory goes first, or after:
	// its files and this one's, and the list of them, are never mixed.
	unlock, err := outfile.LockDir(*out, func() {
		fmt.Fprintf(stderr, "memsym explain: waiting for another memsym run writing into %s\n", *out)
	})
	if err != nil {
		return fmt.Errorf("-o %s: %w", *out, err)
	}
	defer unlock()
	var removed, changed []string
	written, err := outfile.WriteDir(*out, *name, func(stage string) ([]string, error) {
		var written []string
		for _, rd := range renderers {
			names, err := rd.Render(document, stage, opts)
			if err != nil {
				return nil, fmt.Errorf("writing the %s: %w", rd.Name(), err)
			}
			written = append(written, names...)
		}
		if wantPage {
			return writeExplainPage(written, content.Model, stage, *name, content.Program, r.At, content.Steps)
		}
		return written, nil
	}, func(written []string) (err error) {
		// The earlier run's files removed, and this run's listed, as the
		// files are moved in: a signal comes before or after both.
		removed, changed, err = reports.RemoveStale(*out, opts, written)
		return err
	})
	if written == nil {
		for _, d := range created {
			os.Remove(d) // empty: nothing was written
		}
		return err
	}
	fmt.Fprintf(stdout, "memsym explain: wrote %s into %s: %s\n", doc.Plural(len(written), "file", "files"), *out, strings.Join(written, ", "))
	warnLacks(stderr, content, renderers, opts)
	if len(removed) > 0 {
		fmt.Fprintf(stdout, "memsym explain: removed %s an earlier run wrote and this one did not: %s\n",
			doc.Plural(len(removed), "file", "files"), strings.Join(removed, ", "))
	}
	if len(changed) > 0 {
		// Left as the user's own, but what memsym wrote in them is the
		// earlier run's: a paper that inputs one would not see it move.
		fmt.Fprintf(stderr, "memsym explain: left %s an earlier run wrote and this one did not, changed since, so taken as yours; what memsym wrote in %s is that run's: %s\n",
			doc.Plural(len(changed), "file", "files"), map[bool]string{true: "it", false: "them"}[len(changed) == 1], strings.Join(changed, ", "))
	}
	if err != nil {
		return err
	}
	return nil
}

// alignPoint orders --at's values as the program's dimensions and refuses a
// missing or unknown one, when the source can say its dimensions.
func alignPoint(at record.Point, src source.Source, spec source.Spec, given bool) (record.Point, error) {
	// A bundled program, a recorder and the PyTorch recorder each plan the
	// grid, whose order of dimensions the point takes; files carry their
	// own points.
	p, ok := src.(interface {
		Plan(source.Spec) (*source.Plan, error)
	})
	if !ok {
		return at, nil
	}
	pl, err := p.Plan(spec)
	if err != nil {
		return nil, err
	}
	var out record.Point
	for _, v := range pl.Vars {
		x, ok := at.Value(v)
		if !ok {
			return nil, usagef("--at: no value for %s", v)
		}
		if x < 1 {
			return nil, usagef("--at %s=%d: dimensions are integers of at least 1", v, x)
		}
		out = append(out, record.Dim{Name: v, Value: x})
	}
	for _, d := range at {
		if _, ok := out.Value(d.Name); !ok {
			return nil, usagef("--at %s: no dimension %s (the dimensions are %s)", d.Name, d.Name, strings.Join(pl.Vars, ", "))
		}
	}
	// A point the program does not run at is refused before the grid is
	// recorded, not after.
	if err := source.NotRunning(src, out); err != nil {
		if !given { // the program's default point, which the constants moved past
			return nil, usagef("the chapter counts the program at its default point, %s, where it does not run: %v; give --at a point where it runs", out, source.Limit(src, out))
		}
		return nil, usagef("--at %s: %v", out.Key(), err)
	}
	return out, nil
}

// constSets is a repeatable flag, each value a set of constants:
// --other-consts D=384,H=6,L=6.
type constSets []map[string]int64

func (c *constSets) String() string {
	if c == nil {
		return ""
	}
	var sets []string
	for _, m := range *c {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, k+"="+strconv.FormatInt(m[k], 10))
		}
		sets = append(sets, strings.Join(parts, ","))
	}
	return strings.Join(sets, " ")
}

func (c *constSets) Set(s string) error {
	var a assignments
	if err := a.Set(s); err != nil {
		return err
	}
	*c = append(*c, a.values())
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

// warnLacks warns, on stderr, of the characters of the recordings' names
// that the LaTeX or the PDF written cannot show (reports.TeXLacks,
// reports.PDFLacks): they are there as question marks or empty boxes,
// which a reader would take for the names.
func warnLacks(stderr io.Writer, content *explain.Content, renderers []reports.Renderer, opts reports.Options) {
	var tex, pdf []string
	for _, r := range content.NameRunes() {
		shown := string(r)
		if doc.Hidden(r) {
			shown = fmt.Sprintf("U+%04X", r) // not written as it is: it would move the text
		}
		if reports.TeXLacks(r) {
			tex = append(tex, shown)
		}
		if reports.PDFLacks(r) {
			pdf = append(pdf, shown)
		}
	}
	const most = 8
	list := func(rs []string) string {
		if len(rs) > most {
			return strings.Join(rs[:most], " ") + " and " + doc.Plural(len(rs)-most, "more", "more")
		}
		return strings.Join(rs, " ")
	}
	stem := opts.Stem
	if stem == "" {
		stem = reports.DefaultStem
	}
	for _, rd := range renderers {
		switch {
		case rd.Name() == "tikz" && len(tex) > 0:
			fmt.Fprintf(stderr, "memsym explain: the LaTeX (%s-tikz.tex, %s-formulas.tex and the figures' .tex) writes ? for %s in the recording's names: pdflatex's fonts lack them\n", stem, stem, list(tex))
		case rd.Name() == "pdf" && len(pdf) > 0:
			fmt.Fprintf(stderr, "memsym explain: %s.pdf shows %s in the recording's names as empty boxes or ?: its fonts lack them\n", stem, list(pdf))
		}
	}
}
