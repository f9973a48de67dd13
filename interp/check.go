package interp

import (
	"fmt"

	"memsym/internal/pages"
	"memsym/poly"
	"memsym/record"
)

// notPolynomial is the reason a check point's bytes are refused, at the
// point dims.
func notPolynomial(dims []record.Dim) string {
	return "its bytes are not a polynomial of degree ≤ 2 " + inEach(dims)
}

// inEach returns "in each dimension", or "in T" where T is the only one.
func inEach(dims []record.Dim) string {
	if len(dims) == 1 {
		return "in " + dims[0].Name
	}
	return "in each dimension"
}

// whyBytes is the reason bytes at the point dims are refused: without
// dimensions, a program's recordings must all hold the same bytes.
func whyBytes(dims []record.Dim) string {
	if len(dims) == 0 {
		return "a program without dimensions has the same bytes in every recording of it"
	}
	return notPolynomial(dims)
}

// checker compares the model with one recording off the grid.
type checker struct {
	b     *build
	src   Source
	point string
	at    map[string]int64
	byVec []poly.Rat // per value vector: its polynomial's value at the point
	known []bool
}

// newChecker returns a checker of the recording of src at the point dims.
func (b *build) newChecker(src Source, dims []record.Dim) *checker {
	k := &checker{
		b: b, src: src, point: pointName(dims), at: make(map[string]int64),
		byVec: make([]poly.Rat, len(b.polys)), known: make([]bool, len(b.polys)),
	}
	for _, d := range dims {
		k.at[d.Name] = d.Value
	}
	return k
}

// check reads the recording of src at the point dims and refuses the model
// unless every buffer's bytes, the parameters, inputs and outputs, the live
// bytes at every operation and the peak are the polynomials' values there.
func (b *build) check(src Source, dims []record.Dim) error {
	k := b.newChecker(src, dims)
	err := b.st.walk(src, dims, nil, func(pos int, buf *record.Buffer, line int) error {
		want, err := k.value(b.class[pos])
		if err != nil {
			return err
		}
		if !buf.Bytes.Equal(want) {
			return fmt.Errorf("%s: buffer %d%s, %s, has %s bytes at %s but its polynomial %s gives %s: %s",
				at(src.Name, line), buf.ID, quoted(buf.Name), k.maker(pos), buf.Bytes, k.point, b.polys[b.class[pos]], want, whyBytes(dims))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := k.totals(); err != nil {
		return err
	}
	return k.lives()
}

// checkRead is check for a recording read already, by comparison with
// point 0's, its buffers' bytes in pv; nil pv, or bytes that a polynomial
// does not give, make check read it again, to say exactly where it differs.
func (b *build) checkRead(src Source, dims []record.Dim, pv *pointValues) error {
	if pv == nil || len(pv.local) != len(b.class) {
		return b.check(src, dims)
	}
	k := b.newChecker(src, dims)
	for pos, c := range b.class { // a view's bytes are zero on both sides
		want, err := k.value(c)
		if err != nil {
			return err
		}
		if !pv.table[pv.local[pos]].Equal(want) {
			return b.check(src, dims)
		}
	}
	if err := k.totals(); err != nil {
		return err
	}
	return k.lives()
}

// value returns value vector c's polynomial at the point; every buffer of
// the recording at the point has been found to have these bytes.
func (k *checker) value(c int32) (poly.Rat, error) {
	if !k.known[c] {
		v, err := k.b.polys[c].EvalInt(k.at)
		if err != nil {
			return poly.Rat{}, internalf("%v", err)
		}
		k.byVec[c], k.known[c] = v, true
	}
	return k.byVec[c], nil
}

// totals compares the parameters, inputs and outputs.
func (k *checker) totals() error {
	rec, m := k.b.st.rec, k.b.m
	var params, inputs, outputs poly.Rat
	for _, i := range k.b.st.held {
		v, _ := k.value(k.b.class[i])
		inputs = inputs.Add(v)
		if rec.Buffers.Role(int(i)) == record.Param {
			params = params.Add(v)
		}
	}
	for _, i := range k.b.resultBases() {
		v, _ := k.value(k.b.class[i])
		outputs = outputs.Add(v)
	}
	for _, t := range []struct {
		what string
		p    poly.Poly
		got  poly.Rat
	}{{"parameters", m.Params, params}, {"inputs", m.Inputs, inputs}, {"outputs", m.Outputs, outputs}} {
		if err := k.compare(t.p, t.got, "the "+t.what); err != nil {
			return err
		}
	}
	return nil
}

// lives compares the live bytes at every operation, and the peak.
func (k *checker) lives() error {
	b, m := k.b, k.b.m
	b.waitLives()
	born, died := b.born, b.died
	nops := b.st.rec.Ops.Len()
	// The live bytes at the point need the lives alone, the comparison the
	// candidates too, which may not be known yet.
	small, smallOK := k.liveSmall(born, died, nops)
	b.waitCandidates()
	cand := make([]poly.Rat, len(m.Candidates))
	for c := range m.Candidates {
		v, err := m.Candidates[c].Poly.EvalInt(k.at)
		if err != nil {
			return internalf("%v", err)
		}
		cand[c] = v
	}
	if smallOK && k.livesSmall(small, cand) {
		return nil
	}
	var live, peak, predicted poly.Rat
	peakOp := 0
	for op := 1; op <= nops; op++ {
		for _, i := range born.of(op) {
			v, _ := k.value(b.class[i])
			live = live.Add(v)
		}
		c := m.LiveAt[op-1]
		if !live.Equal(cand[c]) {
			o := m.Structure.Ops.At(op - 1)
			return fmt.Errorf("%s: operation %d (%q%s) has %s live bytes at %s but its live-bytes polynomial %s gives %s: the polynomial differs from the sum of its live buffers'",
				k.src.Name, op, o.Label, inPath(o.Path), live, k.point, m.Candidates[c].Poly, cand[c])
		}
		if peakOp == 0 || live.Cmp(peak) > 0 {
			peak, peakOp = live, op
		}
		if op == 1 || cand[c].Cmp(predicted) > 0 {
			predicted = cand[c]
		}
		for _, i := range died.of(op) {
			v, _ := k.value(b.class[i])
			live = live.Sub(v)
		}
	}
	if !peak.Equal(predicted) {
		return fmt.Errorf("%s: the peak is %s bytes at %s, at operation %d, but the largest of the candidates there is %s", k.src.Name, peak, k.point, peakOp, predicted)
	}
	return nil
}

// liveSmall returns the live bytes at the point at each of the nops
// operations (index op−1) as int64s, when every value is an integer that
// fits and no sum overflows; false sends lives to exact numbers.
func (k *checker) liveSmall(born, died buckets, nops int) ([]int64, bool) {
	b := k.b
	byVec := make([]int64, len(b.polys))
	known := make([]bool, len(b.polys))
	value := func(i int32) (int64, bool) {
		c := b.class[i]
		if !known[c] {
			v, err := k.value(c)
			if err != nil {
				return 0, false
			}
			n, ok := v.Int64()
			if !ok {
				return 0, false
			}
			byVec[c], known[c] = n, true
		}
		return byVec[c], true
	}
	lives := pages.Make[int64](nops, nops)
	var live int64
	for op := 1; op <= nops; op++ {
		for _, i := range born.of(op) {
			v, ok := value(i)
			if live, ok = addSubOK(live, v, false, ok); !ok {
				return nil, false
			}
		}
		lives[op-1] = live
		for _, i := range died.of(op) {
			v, ok := value(i)
			if live, ok = addSubOK(live, v, true, ok); !ok {
				return nil, false
			}
		}
	}
	return lives, true
}

// livesSmall makes lives' comparisons on int64s, given the live bytes at
// each operation from liveSmall, when every candidate's value is an integer
// that fits, and reports whether they all held; false sends lives to exact
// numbers, to check again and say where.
func (k *checker) livesSmall(lives []int64, cand []poly.Rat) bool {
	m := k.b.m
	small := make([]int64, len(cand))
	for c, v := range cand {
		n, ok := v.Int64()
		if !ok {
			return false
		}
		small[c] = n
	}
	var peak, predicted int64
	for op, live := range lives {
		c := small[m.LiveAt[op]]
		if live != c {
			return false
		}
		if op == 0 || live > peak {
			peak = live
		}
		if op == 0 || c > predicted {
			predicted = c
		}
	}
	return peak == predicted
}

// addSubOK is addSub when ok, and false otherwise.
func addSubOK(a, b int64, neg, ok bool) (int64, bool) {
	if !ok {
		return 0, false
	}
	return addSub(a, b, neg)
}

// compare refuses a total whose polynomial does not give the recorded got.
func (k *checker) compare(p poly.Poly, got poly.Rat, what string) error {
	want, err := p.EvalInt(k.at)
	if err != nil {
		return internalf("%v", err)
	}
	if !want.Equal(got) {
		return fmt.Errorf("%s: %s have %s bytes at %s but their polynomial %s gives %s", k.src.Name, what, got, k.point, p, want)
	}
	return nil
}

// maker says where buffer pos comes from: the operation that first writes
// it, or who holds it.
func (k *checker) maker(pos int) string {
	rec := k.b.st.rec
	switch rec.Buffers.Role(pos) {
	case record.Param:
		return "a parameter"
	case record.Input:
		return "an input"
	case record.State:
		return "an optimizer's state"
	}
	k.b.waitLives()
	n := int(k.b.lives[pos].First)
	if n == 0 {
		return "which no operation writes"
	}
	o := rec.Ops.At(n - 1)
	return fmt.Sprintf("made by operation %d (%q%s)", n, o.Label, inPath(o.Path))
}

func inPath(path string) string {
	if path == "" {
		return ", the entry's own"
	}
	return " in " + path
}

func quoted(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" %q", name)
}
