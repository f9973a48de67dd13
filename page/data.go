package page

import (
	"math/big"
	"strconv"
	"strings"

	"memsym/poly"
)

// The page's data, as its script reads it (JSON in the page). Every
// polynomial is an index into Polys, each written as
//
//	den|c,e1,…,en|c,e1,…,en
//
// for Σ c·x1^e1·…·xn^en / den: integer numerators over one positive
// denominator, exponents aligned with Vars, terms in the model's order;
// "1" alone is the zero polynomial.
type pageData struct {
	Title       string      `json:"title"`
	Entry       string      `json:"entry"`
	Realization string      `json:"realization"`
	Consts      string      `json:"consts"`
	Vars        []string    `json:"vars"`
	Dims        []dimData   `json:"dims"`
	Polys       []string    `json:"polys"`
	Inputs      int         `json:"inputsOther"`  // the caller-held bytes but the parameters
	Outputs     int         `json:"outputsOther"` // the result's bytes but the parameters it returns
	Types       []string    `json:"types"`
	Int4Group   int         `json:"int4Group"`
	Groups      []groupData `json:"groups"`
	Cands       []candData  `json:"cands"`
	Kept        []int       `json:"kept"`
	Ops         int         `json:"ops"`
	Curve       curveData   `json:"curve"`
	Bands       []Band      `json:"bands"`
	Calls       []callData  `json:"calls"`
	Net         *Network    `json:"net"`
	Budgets     []int       `json:"budgets"` // GiB
	Steps       []stepData  `json:"steps"`
	// Unchecked is true when the model has dimensions and was checked at
	// no point off its grid: the page says so under its title.
	Unchecked bool `json:"unchecked,omitempty"`
	// Negative, when some buffer's bytes are negative somewhere in the
	// domain, says where (Model.NegativeBytes): there the page's figures
	// are the polynomials', not the program's, and it says so under its
	// title.
	Negative string `json:"negative,omitempty"`
}

type dimData struct {
	Name  string  `json:"name"`
	Min   int64   `json:"min"`
	Max   int64   `json:"max"`
	Value int64   `json:"value"`
	Grid  []int64 `json:"grid"`
	// Stops say why the range stops short, shown beside the slider.
	Stops []string `json:"stops,omitempty"`
}

type groupData struct {
	Title string `json:"title"`
	Types string `json:"types"`
	// Parts are [elements, bytes, count, inResult, bits]: elements -1
	// and bits 0 for buffers given in bytes.
	Parts [][5]int `json:"parts"`
}

type candData struct {
	Poly   int    `json:"poly"`
	Op     int    `json:"op"`
	Label  string `json:"label"`
	Path   string `json:"path"`
	Shares []int  `json:"shares"` // per call; -1 for none
}

// curveData is the live bytes at each operation, in buckets of W
// operations (the last perhaps shorter): each bucket lists the
// candidates (their live bytes) met in it, in base 36 joined by ".",
// the buckets joined by ",". With W = 1 the curve is exact; wider
// buckets draw, at each point, the largest live bytes of each.
type curveData struct {
	W       int    `json:"w"`
	Buckets string `json:"buckets"`
}

type callData struct {
	Title string `json:"title"`
	Path  string `json:"path"`
	Depth int    `json:"depth"`
}

// curveBuckets is about how many buckets a long program's curve is drawn
// in; programs of up to exactCurve operations get one per operation.
const (
	curveBuckets = 800
	exactCurve   = 1600
)

// polyTable numbers distinct polynomials.
type polyTable struct {
	vars  []string
	list  []string
	index map[string]int
}

func (t *polyTable) add(p poly.Poly) int {
	s := encodePoly(poly.WithVars(p, t.vars), len(t.vars))
	if k, ok := t.index[s]; ok {
		return k
	}
	t.index[s] = len(t.list)
	t.list = append(t.list, s)
	return len(t.list) - 1
}

// encodePoly writes p, over n variables, as the script reads it.
func encodePoly(p poly.Poly, n int) string {
	den := big.NewInt(1)
	for i := range p.Len() {
		c, _ := p.Term(i)
		d := c.Den()
		g := new(big.Int).GCD(nil, nil, den, d)
		den.Mul(den, d.Quo(d, g))
	}
	var b strings.Builder
	b.WriteString(den.String())
	for i := range p.Len() {
		c, exp := p.Term(i)
		num := new(big.Int).Mul(c.Num(), new(big.Int).Quo(den, c.Den()))
		b.WriteByte('|')
		b.WriteString(num.String())
		for j := range n {
			b.WriteByte(',')
			e := 0
			if len(exp) > 0 {
				e = exp[j]
			}
			b.WriteString(strconv.Itoa(e))
		}
	}
	return b.String()
}

// data assembles the page's data.
func (pg *Page) data() *pageData {
	m := pg.m
	h := m.Header()
	t := &polyTable{vars: m.Vars, index: map[string]int{}}
	// Every list is one in the data, empty rather than null, which the
	// script reads as it reads any other: a model without dimensions (a
	// recording whose header has "dims": {}) has no dims, and its page no
	// sliders.
	d := &pageData{
		Title: pg.title, Entry: h.Entry, Realization: h.Realization,
		Vars: nonNil(m.Vars), Ops: m.Structure.Ops.Len(), Int4Group: Int4Group,
		Bands: nonNil(pg.bands), Net: pg.net, Budgets: []int{24, 40, 80},
		Kept: nonNil(m.Front.Kept), Unchecked: len(m.Vars) > 0 && len(m.CheckPoints()) == 0, Negative: m.NegativeBytes(),
		Dims: []dimData{}, Types: []string{}, Groups: []groupData{}, Cands: []candData{}, Calls: []callData{},
	}
	var consts []string
	for _, c := range h.Consts {
		consts = append(consts, c.Name+" = "+c.Value)
	}
	d.Consts = strings.Join(consts, ", ")
	for i, dim := range pg.dims {
		d.Dims = append(d.Dims, dimData{Name: dim.Name, Min: dim.Min, Max: dim.Max, Value: dim.Value, Grid: nonNil(m.Grid[i]), Stops: dim.Stops})
	}
	d.Inputs = t.add(pg.inputsOther)
	d.Outputs = t.add(pg.outputsOther)
	for _, st := range StoredTypes {
		d.Types = append(d.Types, string(st))
	}
	for _, g := range pg.groups {
		gd := groupData{Title: g.Title(), Types: g.TypeNames(), Parts: [][5]int{}}
		for _, p := range g.Parts {
			e, bits := -1, 0
			if p.Typed() {
				e, bits = t.add(p.Elements), p.DType.Bits
			}
			gd.Parts = append(gd.Parts, [5]int{e, t.add(p.Bytes), p.Count, p.InResult, bits})
		}
		d.Groups = append(d.Groups, gd)
	}
	for c, cand := range m.Candidates {
		op := m.Op(cand.Op)
		cd := candData{Poly: t.add(cand.Poly), Op: cand.Op, Label: op.Label, Path: op.Path, Shares: []int{}}
		for _, s := range pg.shares[c] {
			k := -1
			if !s.IsZero() {
				k = t.add(s)
			}
			cd.Shares = append(cd.Shares, k)
		}
		d.Cands = append(d.Cands, cd)
	}
	for _, c := range pg.calls.calls {
		d.Calls = append(d.Calls, callData{Title: c.Title(), Path: c.Path, Depth: c.Depth})
	}
	d.Curve = pg.curve()
	d.Steps = pg.stepsData(t)
	d.Polys = t.list
	return d
}

// curve buckets the live bytes of the operations.
func (pg *Page) curve() curveData {
	n := len(pg.m.LiveAt)
	w := 1
	if n > exactCurve {
		w = (n + curveBuckets - 1) / curveBuckets
	}
	var b strings.Builder
	for start := 0; start < n; start += w {
		if start > 0 {
			b.WriteByte(',')
		}
		var seen []int32
		for _, c := range pg.m.LiveAt[start:min(start+w, n)] {
			if !containsInt32(seen, c) {
				seen = append(seen, c)
			}
		}
		for i, c := range seen {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(strconv.FormatInt(int64(c), 36))
		}
	}
	return curveData{W: w, Buckets: b.String()}
}

// nonNil returns xs, or an empty list for nil: JSON's [] rather than null.
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func containsInt32(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
