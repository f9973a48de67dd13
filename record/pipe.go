package record

import "sync/atomic"

// A Pipe adds a stream's records to a Builder on two cores: the caller's
// goroutine scans them, another adds them, the records handed over in
// batches of copies. Read takes one for a large recording, and interp one
// for the first point of a grid, whose scanning side hands each line on to
// the other points' readers.
type Pipe struct {
	// Scanned, if not nil, sees each record as it is scanned, on the
	// scanning goroutine: it returns room for the Builder to make before
	// it takes the record (Builder.Grow's counts; zero for none), and an
	// error that ends the reading after this record.
	Scanned func(r *Record) (grow [2]int, err error)
	// Took, if not nil, sees each record the Builder took, on the
	// Builder's goroutine.
	Took func(r *Record)
	// Grew, if not nil, is told the room the Builder made (Scanned's
	// counts), on the Builder's goroutine, before it takes the record
	// that asked for it: Took's caller may make room as well.
	Grew func(buffers, ops int)
	// Mistake makes the error of the Builder's mistake at a record's
	// line.
	Mistake func(line int, err error) error
}

// Build adds the records of s to b and returns the first error in the
// order of the records: the Builder's mistake, when it finds one (the
// scanning then stops), else Scanned's, else the stream's. It leaves b
// unfinished.
func (p Pipe) Build(s Stream, b *Builder) error {
	const batches, batchSize = 4, 1024
	free, full := make(chan *batch, batches), make(chan *batch, batches)
	for range batches {
		free <- new(batch)
	}
	var failed atomic.Bool
	built := make(chan error, 1)
	go func() {
		var err error
		for bt := range full {
			if bt.grow != [2]int{} && err == nil {
				b.Grow(bt.grow[0], bt.grow[1])
				if p.Grew != nil {
					p.Grew(bt.grow[0], bt.grow[1])
				}
			}
			for i := 0; i < len(bt.recs) && err == nil; i++ {
				r := &bt.recs[i]
				if e := b.Add(r); e != nil {
					err = p.Mistake(r.Line, e)
					failed.Store(true)
				} else if p.Took != nil {
					p.Took(r)
				}
			}
			bt.reset()
			free <- bt
		}
		built <- err
	}()
	bt := <-free
	var err error
	for err == nil && !failed.Load() && s.Scan() {
		r := s.Record()
		if p.Scanned != nil {
			var grow [2]int
			if grow, err = p.Scanned(r); grow != [2]int{} {
				bt.grow = grow
			}
		}
		bt.add(r, false)
		if len(bt.recs) == batchSize {
			full <- bt
			bt = <-free
		}
	}
	full <- bt
	close(full)
	if err == nil {
		err = s.Err()
	}
	if mistake := <-built; mistake != nil {
		return mistake // an earlier record's
	}
	return err
}
