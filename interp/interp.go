// Package interp derives a program's memory as exact polynomials in its
// dimensions from recordings on a grid of three values per dimension, and
// checks them at points off the grid.
//
// Every buffer's bytes are interpolated exactly, as a polynomial of degree at
// most 2 in each dimension; from them follow the parameters, the inputs, the
// outputs, the live bytes at each operation and the peak's candidates. The
// recordings must hold the same operations at every point, only their
// dimensions' values and sizes differing, except along a dimension that
// counts blocks of operations, as a layer count does (align.go, fold.go).
package interp

import (
	"fmt"
	"math"
	"math/big"
	"runtime"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// Source is one recording of the program at one point.
type Source struct {
	// Name names the source in messages: a file name, or "B = 16, T = 256"
	// for a recorder.
	Name string
	// Open returns a new stream of the recording from its start. Build may
	// call it more than once (the header first, then the whole), and for
	// different sources at once. A stream that is an io.Closer is closed
	// when Build is done with it.
	Open func() (record.Stream, error)
}

// Model is a program's memory as polynomials in its dimensions.
type Model struct {
	Vars       []string          // the dimensions, in the header's order
	Grid       [][]int64         // per dimension, its three grid values ascending
	Checked    [][]int64         // the check points, each aligned with Vars
	Structure  *record.Recording // the first grid point's recording; its sizes are that point's
	First      string            // the name of the first grid point's source
	Lives      []count.Life      // per buffer position in Structure.Buffers
	Params     poly.Poly         // the parameters' bytes
	Inputs     poly.Poly         // the caller-held buffers' bytes, the parameters among them
	Outputs    poly.Poly         // the result's buffers' bytes, each buffer once
	Candidates []Candidate       // the distinct live-bytes polynomials, in order of their first operation
	LiveAt     []int32           // per operation (index op−1): its live bytes' index in Candidates
	den        *big.Int
	polys      []poly.Poly // the distinct bytes, or each buffer's when class is nil
	class      []int32     // per buffer position: its bytes' index in polys
	b          *build      // what Check needs: the grid, the structure, the value vectors
	fold       *fold       // a dimension that counts blocks of operations (align.go), or nil
}

// Candidate is one distinct polynomial of live bytes and the first
// operation (numbered from 1) whose live bytes it is.
type Candidate struct {
	Poly poly.Poly
	Op   int
}

// Bytes returns the bytes of the buffer at position i in
// Structure.Buffers: zero for a view.
func (m *Model) Bytes(i int) poly.Poly {
	if m.class == nil {
		return m.polys[i]
	}
	return m.polys[m.class[i]]
}

// DistinctBytes calls f with each distinct polynomial of a buffer's bytes
// and the first buffer position in Structure.Buffers whose bytes it is, in
// the order of the positions, until f returns false. Without classes (a
// model made buffer by buffer), every buffer's bytes are given.
func (m *Model) DistinctBytes(f func(p poly.Poly, pos int) bool) {
	if m.class == nil {
		for pos, p := range m.polys {
			if !f(p, pos) {
				return
			}
		}
		return
	}
	seen := make([]bool, len(m.polys))
	for pos, c := range m.class {
		if !seen[c] {
			seen[c] = true
			if !f(m.polys[c], pos) {
				return
			}
		}
	}
}

// Live returns the live bytes at operation op (numbered from 1), or the zero
// polynomial for a number that is no operation's.
func (m *Model) Live(op int) poly.Poly {
	if op < 1 || op > len(m.LiveAt) {
		return poly.New(m.Vars, nil)
	}
	return m.Candidates[m.LiveAt[op-1]].Poly
}

// Denominator returns the one denominator of all the interpolation's
// coefficients: the product of each dimension's Vandermonde determinant and
// the least common multiple of the bytes' denominators, divided by the
// greatest common divisor of all numerators. It is 1 when every coefficient
// is an integer.
func (m *Model) Denominator() *big.Int { return new(big.Int).Set(m.den) }

// build is the state of one Build.
type build struct {
	g     *grid
	st    *structure
	vals  *values   // the distinct bytes seen at any grid point
	pre   *prefixes // the distinct value vectors so far
	class []int32   // per buffer position: its value vector's number
	coefs []nums    // per value vector: its coefficients' numerators over den
	den   *big.Int
	polys []poly.Poly // per value vector
	lives []count.Life
	m     *Model

	followed bool // the grid was read by comparison with point 0 (follow.go)
	// When it was not: the first difference from point 0 the points that
	// stopped hold, if any, and each point's count of operations where
	// it is known, −1 elsewhere (follow.go).
	differs error
	counts  []int

	// What model finds on a goroutine of its own (live.go): born and died
	// bucket the lives by operation; livesDone is closed once they and the
	// lives are known, candDone once the candidates are too.
	born, died          buckets
	livesDone, candDone chan struct{}
	results             []int // resultBases of the structure, once found
}

// CheckError is Build's refusal of the recording at one of its check
// points: it could not be read, it is not off the grid, or it disagrees
// with the model. Its message is Err's, which names the recording.
type CheckError struct {
	Index int // the check point's index in Build's checks
	Err   error
}

func (e *CheckError) Error() string { return e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }

// Build reads the recordings of one program on a grid of three values per
// dimension, interpolates every buffer's bytes and what follows from them,
// and checks all of it against the recordings at the check points, which
// must be off the grid in every dimension. It refuses recordings whose
// operations differ and bytes that are not polynomials of degree at most 2
// in each dimension, saying where; a refusal at a check point is a
// *CheckError.
func Build(grid []Source, checks []Source) (*Model, error) {
	g, err := formGrid(grid)
	if err != nil {
		return nil, err
	}
	m, err := buildGrid(g, grid, checks)
	if d, ok := err.(*opsDiffer); ok {
		if set := sizeOne(g, grid, d.at); set != nil {
			return nil, &opsDiffer{head: d.head, why: whySizeOne(g, set), at: d.at}
		}
	}
	if err != nil {
		return nil, err
	}
	m.First = grid[g.order[0]].Name
	return m, nil
}

// collectFrom is the least number of operations of a grid's recordings
// after whose reading buildGrid collects garbage: on a grid of 10^6
// operations, the collection frees about 16 MB for the model and takes
// 0.97 of the wall time (BENCHMARKS.md, issue 16's twenty-sixth round); a
// small recording's model needs too little memory to be worth one.
const collectFrom = 100_000

// buildGrid is Build on the grid g formed of the recordings in points.
func buildGrid(g *grid, points, checks []Source) (*Model, error) {
	var err error
	checkDims := make([][]record.Dim, len(checks))
	for i, src := range checks {
		if checkDims[i], err = g.checkPoint(src, true); err != nil {
			return nil, &CheckError{Index: i, Err: err}
		}
	}
	b := &build{g: g, vals: newValues(0), pre: &prefixes{}}
	fast, checkVals, err := b.readFollowing(points, checks, checkDims)
	if err != nil {
		return nil, err
	}
	if !fast && b.differs != nil {
		return buildFolded(points, checks, b.differs, b.counts)
	}
	if !fast {
		b = &build{g: g, vals: newValues(0), pre: &prefixes{}}
		if err := b.readStructure(points[g.order[0]]); err != nil {
			return nil, err
		}
		if err := b.readPoints(points); err != nil {
			return buildFolded(points, checks, err, nil)
		}
		checkVals = make([]*pointValues, len(checks))
	}
	if b.st.rec.Ops.Len() >= collectFrom {
		// What the reading held (point 0's lines in chunks, the points'
		// sizes, the Scanners' buffers) is garbage now: collected here, its
		// memory is where the model's arrays go, rather than fresh memory
		// the kernel must clear.
		runtime.GC()
	}
	b.interpolate()
	b.model()
	defer b.waitCandidates() // on every return: the model's goroutine is done
	for i, src := range checks {
		if err := b.checkRead(src, checkDims[i], checkVals[i]); err != nil {
			return nil, &CheckError{Index: i, Err: err}
		}
		b.m.Checked = append(b.m.Checked, dimValues(checkDims[i]))
	}
	b.waitCandidates()
	b.m.b = b
	return b.m, nil
}

// Check reads the recording of src, a point off the grid, and returns an
// error unless every buffer's bytes, the parameters, inputs and outputs, the
// live bytes at every operation and the peak are the model's values there:
// the check Build makes at its check points, made later (memsym verify).
// It does not add the point to Checked.
func (m *Model) Check(src Source) error { return m.checkAt(src, true) }

// Agrees is Check at any point where the model holds, on the grid's values
// or off them: for a recording made to confirm what the model answers
// there (memsym crossover --confirm, fit --confirm), whose operations must
// be the model's for its operation numbers to mean the same. It does not
// test the interpolation, which a grid value cannot.
func (m *Model) Agrees(src Source) error { return m.checkAt(src, false) }

// checkAt is Check, with the point required to be off the grid or not.
func (m *Model) checkAt(src Source, offGrid bool) error {
	if m.fold != nil {
		return m.fold.checkPoint(m, src, offGrid)
	}
	dims, err := m.b.g.checkPoint(src, offGrid)
	if err != nil {
		return err
	}
	return m.b.check(src, dims)
}

// readStructure reads the first grid point whole, starting each buffer's
// value vector.
func (b *build) readStructure(src Source) error {
	zero := b.vals.id(poly.Rat{})
	b.pre.next()
	st, err := readStructure(src, pointName(b.g.dims[b.g.order[0]]), func(pos int, buf *record.Buffer) {
		v := zero
		if !buf.IsView {
			v = b.vals.id(buf.Bytes)
		}
		b.class = append(b.class, b.pre.extend(-1, v))
	})
	b.st = st
	return err
}

// interpolate solves each distinct value vector once, over one common
// denominator reduced as far as all numerators allow.
func (b *build) interpolate() {
	scaled, lcm := b.vals.scaled()
	sol := newSolver(b.g.values)
	b.coefs = make([]nums, b.pre.count())
	for c := range b.coefs {
		in := gather(b.pre.vector(int32(c)), &scaled)
		b.coefs[c] = sol.solve(&in)
	}
	b.den = lcm.Mul(lcm, sol.det)
	reduce(b.coefs, b.den)
	b.polys = make([]poly.Poly, len(b.coefs))
	var terms []poly.Term
	for c := range b.coefs {
		b.polys[c], terms = b.coefs[c].toPolyIn(terms, b.g.vars, b.den)
	}
}

// gather returns the integer values of one value vector, given the
// integers of the values it numbers.
func gather(vector []int32, scaled *nums) nums {
	if scaled.big == nil {
		v := nums{small: make([]int64, len(vector))}
		for p, id := range vector {
			v.small[p] = scaled.small[id]
		}
		return v
	}
	v := nums{big: make([]*big.Int, len(vector))}
	for p, id := range vector {
		v.big[p] = scaled.at(int(id))
	}
	v.shrink()
	return v
}

// reduce divides den and every numerator by their greatest common divisor.
func reduce(coefs []nums, den *big.Int) {
	g := new(big.Int).Set(den)
	one := big.NewInt(1)
	var tmp big.Int
	for c := range coefs {
		if g.IsInt64() && coefs[c].big == nil {
			if d, ok := gcdOf(g.Int64(), coefs[c].small); ok {
				if d == 1 {
					return
				}
				g.SetInt64(d)
				continue
			}
		}
		for a := range coefs[c].len() {
			if g.Cmp(one) == 0 {
				return
			}
			g.GCD(nil, nil, g, coefs[c].entry(a, &tmp))
		}
	}
	if g.Cmp(one) == 0 {
		return
	}
	den.Quo(den, g)
	for c := range coefs {
		v := &coefs[c]
		if v.big == nil && g.IsInt64() {
			for a := range v.small {
				v.small[a] /= g.Int64()
			}
			continue
		}
		v.promote()
		for _, x := range v.big {
			x.Quo(x, g)
		}
		v.shrink()
	}
}

// gcdOf returns the greatest common divisor of g > 0 and the xs, or false
// for an x of −2^63, whose magnitude does not fit.
func gcdOf(g int64, xs []int64) (int64, bool) {
	for _, x := range xs {
		if g == 1 {
			break
		}
		if x == math.MinInt64 {
			return 0, false
		}
		g = gcd64(g, absInt(x))
	}
	return g, true
}

func dimValues(dims []record.Dim) []int64 {
	vs := make([]int64, len(dims))
	for i, d := range dims {
		vs[i] = d.Value
	}
	return vs
}

// internalf reports a broken invariant of interp itself.
func internalf(format string, args ...any) error {
	return fmt.Errorf("interp: internal error: "+format, args...)
}
