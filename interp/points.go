package interp

import (
	"runtime"
	"sync"

	"memsym/poly"
	"memsym/record"
)

// pointValues is what reading one more grid point gives: each buffer's
// bytes as a number in a table of that point's distinct values.
type pointValues struct {
	local []int32 // per buffer position; views hold 0, whose value is 0
	table []poly.Rat
	err   error
}

// readPoint reads src, checks that it repeats the structure and collects
// its buffers' bytes, with room for size distinct values ahead.
func readPoint(src Source, st *structure, dims []record.Dim, size int, stop <-chan struct{}) pointValues {
	t := newValues(size)
	t.id(poly.Rat{})
	local := make([]int32, st.rec.Buffers.Len())
	err := st.walk(src, dims, stop, func(pos int, b *record.Buffer, _ int) error {
		local[pos] = t.id(b.Bytes)
		return nil
	})
	return pointValues{local: local, table: t.list, err: err}
}

// readPoints reads grid points 1, 2, ... (point 0 is the structure's), up to
// GOMAXPROCS at once, and extends every buffer's value vector with its
// bytes at each, in point order, so the result does not depend on timing.
// It returns once every reader has stopped and closed its stream.
func (b *build) readPoints(sources []Source) error {
	n := len(b.g.order)
	if n == 1 {
		return nil
	}
	stop := make(chan struct{})
	var running sync.WaitGroup // the launcher and the readers
	defer func() {
		close(stop)
		running.Wait()
	}()
	results := make([]chan pointValues, n)
	for p := 1; p < n; p++ {
		results[p] = make(chan pointValues, 1)
	}
	// A slot is taken before a point is read and given back once its values
	// are merged, which bounds the points held at once.
	slots := make(chan struct{}, min(runtime.GOMAXPROCS(0), n-1))
	size := len(b.vals.list) // point 0's distinct values: the others have about as many
	b.vals.grow(min(size*(n-1), maxGrow))
	running.Add(1)
	go func() {
		defer running.Done()
		for p := 1; p < n; p++ {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			running.Add(1)
			go func() {
				defer running.Done()
				src := b.g.order[p]
				results[p] <- readPoint(sources[src], b.st, b.g.dims[src], size, stop)
			}()
		}
	}()
	for p := 1; p < n; p++ {
		r := <-results[p]
		if r.err != nil {
			return r.err
		}
		b.merge(&r)
		<-slots
	}
	return nil
}

// merge extends each buffer's value vector with its value at the next point.
func (b *build) merge(r *pointValues) {
	global := make([]int32, len(r.table))
	for i, v := range r.table {
		global[i] = b.vals.id(v)
	}
	b.pre.next()
	for i, prev := range b.class {
		b.class[i] = b.pre.extend(prev, global[r.local[i]])
	}
}

// pointName writes a point as "B = 16, T = 256", and a recording's point
// without dimensions as "its one point".
func pointName(dims []record.Dim) string {
	if len(dims) == 0 {
		return "its one point"
	}
	return record.Point(dims).String()
}
