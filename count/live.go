package count

import (
	"memsym/record"
)

// Life is the span of operations during which a buffer is live: from First to
// Last, both included, numbered from 1. The zero Life is never live. A life
// is a use (record.Use) as the rules below make it, so the uses a Builder
// found become the lives in place.
type Life = record.Use

// Lifetimes returns the life of each buffer of rec, by its position in
// rec.Buffers, under the seed's rules:
//
//   - a temp buffer lives from the first operation that writes it to the last
//     that reads or writes it, both included, so that an operation's inputs
//     and outputs are live together; one written and never read lives at its
//     writing operations only;
//   - reading or writing a view reads or writes its base;
//   - the result's buffers live to the last operation;
//   - views and caller-held buffers (parameters, inputs) are never live: they
//     are counted apart.
//
// Lives depend only on the operations, not on the sizes, so recordings of
// one program at different points share them.
func Lifetimes(rec *record.Recording) []Life {
	return LifetimesFrom(rec, record.Uses(rec))
}

// LifetimesFrom is Lifetimes given the uses of rec's buffers, as
// record.Uses or the Builder that built rec finds them. It takes uses over:
// they become the lives, in place, rather than a copy of a million of them
// in fresh memory.
func LifetimesFrom(rec *record.Recording, uses []record.Use) []Life {
	lives := uses
	for _, id := range rec.Result {
		if l := &lives[rec.BasePosition(id)]; l.First != 0 {
			l.Last = int32(rec.Ops.Len()) // at most 2^31 − 1 (the Builder)
		}
	}
	return lives
}

// position returns the position of the buffer or view id, which a
// Recording's checks guarantee is declared.
func position(rec *record.Recording, id int64) int {
	i, _ := rec.Position(id)
	return i
}
