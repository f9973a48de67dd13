// Package programs holds memsym's bundled programs: networks written in Go
// that record what they do with memory through record.Recorder, at any
// setting of their dimensions and constants, without computing anything.
//
// They are the examples `memsym record` writes, the programs the symbolic
// model is tested on, and a corpus of shapes (attention, convolutions,
// recurrences, experts, views, int4 weights) that memsym must count exactly.
package programs

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"memsym/record"
)

// Dim is one of a program's dimensions: a variable of its polynomials.
type Dim struct {
	Name    string
	Default int64    // the value `memsym record` uses when none is given
	Grid    [3]int64 // the symbolic model's default grid, ascending
	Check   int64    // the model's default check point, off every grid value
	Doc     string
	// Blocks is true of a dimension that counts blocks of operations, as a
	// layer count does: the operations change with it, one block repeated.
	Blocks bool
	// Max is the largest value it may take when the program allows less
	// than MaxDim; 0 for MaxDim.
	Max int64
}

// Limit returns the largest value d may take.
func (d Dim) Limit() int64 { return limit(d.Max, MaxDim) }

// Const is one of a program's constants: a number fixed for a whole model,
// such as a width or a layer count.
type Const struct {
	Name    string
	Default int64
	Doc     string
	// Max is the largest value it may take when the program allows less
	// than MaxConst, as a count of layers does; 0 for MaxConst.
	Max int64
}

// Limit returns the largest value c may take.
func (c Const) Limit() int64 { return limit(c.Max, MaxConst) }

// limit is max, or all when max is 0.
func limit(max, all int64) int64 {
	if max > 0 {
		return min(max, all)
	}
	return all
}

// Program is one bundled program.
type Program struct {
	Name        string
	Summary     string // one line
	Entry       string // the entry point's name, written in the recording's header
	Realization string // the stored types, such as "f64"
	Dims        []Dim  // in the polynomials' variable order
	Consts      []Const
	// Refusal is non-empty for a program that memsym must refuse to model
	// symbolically: why, in words. RefusalWith says whether it applies at
	// given constants.
	Refusal string
	// Chapter, when set, is the preset `memsym explain` takes when it is
	// given no constants: it counts one point at the defaults and models the
	// program at Chapter.Consts, as the seed's chapter does for the course
	// GPT (counted at D = 64, modelled at D = 384).
	Chapter *Chapter
	// Transformer, when set, says how the analytic estimates of a
	// transformer's activations read the program (memory --step --compare).
	Transformer *Transformer

	check func(v values) error // constraints beyond each value's range; may be nil
	// refuses reports whether Refusal applies at the constants v (the
	// defaults filled in); nil when it applies at every one.
	refuses func(v values) bool
	build   func(n *net, v values)

	// The training step (step.go): the loss on the forward's result, the
	// blocks --remat recompute runs again (the fold iterations when empty),
	// why the program has no step (when it has none), and, for a program
	// made by Step, what it is the step of.
	loss        lossKind
	blocks      string
	stepRefusal string
	step        *stepSpec
}

// Chapter is a program's preset for `memsym explain`.
type Chapter struct {
	Consts map[string]int64 // the constants of the chapter's symbolic model
}

// values holds every dimension's and constant's value by name.
type values map[string]int64

// The largest values a dimension and a constant may take. They keep every
// axis of every bundled program within int64: an axis is a sum of one
// dimension and constants, or a product of a few constants.
const (
	MaxDim   = 1 << 40
	MaxConst = 1 << 24
)

// All returns the bundled programs in their listing order.
func All() []*Program { return slices.Clone(all) }

// all is the listing order: the acceptance programs first, then the corpus.
var all = []*Program{
	gptCourse, llama2Block, llama2BlockInt4,
	bertEncoder, encdecCross, decodeKVCache,
	mlpWidth, mlpTrainStep, convSame, ssmScan, moeLayer,
	viewsHeavy, mixedPrecision, synthetic,
	layersAsDim, gptDepth, stridedConv,
}

// Lookup returns the bundled program named name.
func Lookup(name string) (*Program, error) {
	for _, p := range all {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no bundled program %q: expected one of %s", name, strings.Join(names(), ", "))
}

func names() []string {
	s := make([]string, len(all))
	for i, p := range all {
		s[i] = p.Name
	}
	return s
}

// Allows returns nil when the program runs at the given dimensions and
// constants (those not given at their defaults), else why not: a value past
// its dimension's limit, or a constraint such as T ≤ P. A model of the
// program's polynomials answers anywhere; the program has sizes only here.
func (p *Program) Allows(dims, consts map[string]int64) error {
	_, err := p.values(dims, consts)
	return err
}

// RefusalWith returns why memsym must refuse to model p at the given
// constants, the others at their defaults: Refusal where it applies there,
// else "".
func (p *Program) RefusalWith(consts map[string]int64) string {
	if p.Refusal == "" || p.refuses == nil {
		return p.Refusal
	}
	v := values{}
	for _, c := range p.Consts {
		v[c.Name] = c.Default
	}
	for name, x := range consts {
		v[name] = x
	}
	if p.refuses(v) {
		return p.Refusal
	}
	return ""
}

// Record records the program at the given dimensions and constants; those
// not given take their defaults. Unknown names, values below 1 or above
// MaxDim or MaxConst, and values the program cannot be built with (such as
// a width D not divisible by the head count H) are errors. Record may be
// called concurrently.
func (p *Program) Record(dims, consts map[string]int64) (*record.Recording, error) {
	v, hdims, hconsts, err := p.header(dims, consts)
	if err != nil {
		return nil, err
	}
	if p.step != nil {
		return p.step.record(p, v, hdims, hconsts)
	}
	n := newNet(record.NewRecorder(p.Entry, hdims, hconsts, p.Realization), p.Realization)
	p.build(n, v)
	rec, err := n.r.Finish()
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", p.Name, err)
	}
	return rec, nil
}

// Stream records the program at the given dimensions and constants as it
// is read, never holding the recording whole (record.Live), where Record
// would build it. A training step's recording is built whole, its backward
// being made from its forward, and replayed.
func (p *Program) Stream(dims, consts map[string]int64) (record.Stream, error) {
	if p.step != nil {
		rec, err := p.Record(dims, consts)
		if err != nil {
			return nil, err
		}
		return rec.Replay(), nil
	}
	v, hdims, hconsts, err := p.header(dims, consts)
	if err != nil {
		return nil, err
	}
	return record.NewLive(func(sink record.Sink) error {
		n := newNet(record.NewRecorderTo(sink, false, p.Entry, hdims, hconsts, p.Realization), p.Realization)
		p.build(n, v)
		if err := n.r.Err(); err != nil {
			return fmt.Errorf("program %s: %w", p.Name, err)
		}
		return nil
	}), nil
}

// header checks the given dimensions and constants and returns every
// value, and the recording header's dimensions and constants.
func (p *Program) header(dims, consts map[string]int64) (values, []record.Dim, []record.Const, error) {
	v, err := p.values(dims, consts)
	if err != nil {
		return nil, nil, nil, err
	}
	hdims := make([]record.Dim, len(p.Dims))
	for i, d := range p.Dims {
		hdims[i] = record.Dim{Name: d.Name, Value: v[d.Name]}
	}
	hconsts := make([]record.Const, len(p.Consts))
	for i, c := range p.Consts {
		hconsts[i] = record.Const{Name: c.Name, Value: strconv.FormatInt(v[c.Name], 10)}
	}
	return v, hdims, hconsts, nil
}

// values checks the given dimensions and constants and fills in the defaults.
func (p *Program) values(dims, consts map[string]int64) (values, error) {
	v := make(values, len(p.Dims)+len(p.Consts))
	for _, d := range p.Dims {
		v[d.Name] = d.Default
	}
	for _, c := range p.Consts {
		v[c.Name] = c.Default
	}
	dimMax := make(map[string]int64, len(p.Dims))
	for _, d := range p.Dims {
		dimMax[d.Name] = d.Limit()
	}
	if err := p.set(v, "dimension", dims, p.dimNames(), dimMax); err != nil {
		return nil, err
	}
	if err := p.setConsts(v, consts); err != nil {
		return nil, err
	}
	if p.check != nil {
		if err := p.check(v); err != nil {
			return nil, fmt.Errorf("program %s: %w", p.Name, err)
		}
	}
	return v, nil
}

// CheckConsts checks each constant given is one of p's and within its
// range, and that the constants meet the constraints among themselves
// (D divisible by H), as Allows does, without the constraints that tie the
// constants to the dimensions (T ≤ P), which need a point.
func (p *Program) CheckConsts(consts map[string]int64) error {
	if err := p.setConsts(make(values), consts); err != nil {
		return err
	}
	if _, err := p.values(nil, consts); err != nil {
		if u := p.constsOnly(err); u != nil {
			return fmt.Errorf("program %s: %w", p.Name, u)
		}
	}
	return nil
}

// setConsts is set for the constants, each within its range.
func (p *Program) setConsts(v values, consts map[string]int64) error {
	limits := make(map[string]int64, len(p.Consts))
	for _, c := range p.Consts {
		limits[c.Name] = c.Limit()
	}
	return p.set(v, "constant", consts, p.constNames(), limits)
}

// set puts given into v after checking each name is one of known and each
// value is from 1 to its max. It goes through the names in sorted order, so
// that the first error is always the same.
func (p *Program) set(v values, what string, given map[string]int64, known []string, max map[string]int64) error {
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			list := "none"
			if len(known) > 0 {
				list = strings.Join(known, ", ")
			}
			return fmt.Errorf("program %s has no %s %q: its %ss are %s", p.Name, what, k, what, list)
		}
		x := given[k]
		if x < 1 || x > max[k] {
			return fmt.Errorf("program %s: %s %s = %d: expected an integer from 1 to %d", p.Name, what, k, x, max[k])
		}
		v[k] = x
	}
	return nil
}

func (p *Program) dimNames() []string {
	s := make([]string, len(p.Dims))
	for i, d := range p.Dims {
		s[i] = d.Name
	}
	return s
}

func (p *Program) constNames() []string {
	s := make([]string, len(p.Consts))
	for i, c := range p.Consts {
		s[i] = c.Name
	}
	return s
}

// divisible returns an error unless v[a] is a multiple of v[b].
func divisible(v values, a, b string) error {
	if v[a]%v[b] != 0 {
		return &unmet{fmt.Sprintf("%s = %d is not divisible by %s = %d", a, v[a], b, v[b]), []string{a, b}}
	}
	return nil
}

// atMost returns an error unless v[a] <= v[b].
func atMost(v values, a, b string) error {
	if v[a] > v[b] {
		return &unmet{fmt.Sprintf("%s = %d is more than %s = %d", a, v[a], b, v[b]), []string{a, b}}
	}
	return nil
}

// unmet is a constraint a program's values do not meet, and the names it
// ties.
type unmet struct {
	msg   string
	names []string
}

func (e *unmet) Error() string { return e.msg }

// constsOnly returns the first of the constraints err says fail that ties
// constants alone, which no point meets; nil when there is none.
func (p *Program) constsOnly(err error) error {
	var fs failures
	if !errors.As(err, &fs) {
		fs = failures{err}
	}
next:
	for _, e := range fs {
		var u *unmet
		if !errors.As(e, &u) {
			continue
		}
		for _, n := range u.names {
			if slices.Contains(p.dimNames(), n) {
				continue next
			}
		}
		return u
	}
	return nil
}

// checks combines constraint checks; the first failing one is reported,
// and the others that fail are kept behind it (failures), so that one
// among constants alone is found behind one tied to a dimension.
func checks(fs ...func(v values) error) func(v values) error {
	return func(v values) error {
		var errs failures
		for _, f := range fs {
			if err := f(v); err != nil {
				errs = append(errs, err)
			}
		}
		if len(errs) == 0 {
			return nil
		}
		return errs
	}
}

// failures are the constraints that fail, said as the first.
type failures []error

func (e failures) Error() string   { return e[0].Error() }
func (e failures) Unwrap() []error { return e }

// maxLayers bounds the dimensions and constants that count a program's
// repeated blocks (their Max), so that a recording's size stays within what
// a machine holds.
const maxLayers = 10000
