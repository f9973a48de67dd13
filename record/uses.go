package record

import "memsym/internal/pages"

// Use says when a temp buffer is used: the first operation that writes it
// and the last that reads or writes it, numbered from 1; both are zero
// when no operation writes it, and for views and caller-held buffers. A
// view's reads and writes are its base's. Lives (count.Lifetimes) follow
// from uses, and are Uses themselves (count.Life).
type Use struct{ First, Last int32 }

// Live reports whether operation op is within the use: from First to Last,
// both included. The zero Use is never live.
func (u Use) Live(op int) bool { return u.First != 0 && int(u.First) <= op && op <= int(u.Last) }

// touch notes that operation op reads the buffer, or writes it.
func (u *Use) touch(op int32, write bool) {
	if u.First == 0 {
		if !write {
			return
		}
		u.First = op
	}
	u.Last = op
}

// Uses returns the use of each buffer of rec by its position in
// rec.Buffers: the uses a Builder finds as it goes (Builder.Uses), found
// from a whole recording.
func Uses(rec *Recording) []Use {
	uses := pages.Make[Use](rec.Buffers.Len(), rec.Buffers.Len())
	base := BasePositions(rec)
	for n := range rec.Ops.Len() {
		for _, id := range rec.Ops.Writes(n) {
			uses[base[rec.index.at(id)]].touch(int32(n+1), true)
		}
		for _, id := range rec.Ops.Reads(n) {
			uses[base[rec.index.at(id)]].touch(int32(n+1), false)
		}
	}
	for i := range rec.Buffers.Len() {
		if rec.Buffers.Role(i).Held() {
			uses[i] = Use{}
		}
	}
	return uses
}

// BasePositions maps each buffer's position in rec.Buffers to the position
// of the buffer it stands for: its own, or a view's base's.
func BasePositions(rec *Recording) []int32 {
	base := pages.Make[int32](rec.Buffers.Len(), rec.Buffers.Len())
	for i := range rec.Buffers.Len() {
		if rec.Buffers.IsView(i) {
			base[i] = base[rec.index.at(rec.Buffers.rows[i].of())] // a view's base is declared before it
		} else {
			base[i] = int32(i)
		}
	}
	return base
}
