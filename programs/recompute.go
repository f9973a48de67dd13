package programs

import (
	"strings"

	"memsym/record"
)

// segments returns, for each forward operation, the run of operations of
// its block that --remat recompute runs again, or {-1, -1}.
func (b *stepBuilder) segments() [][2]int {
	n := b.fwd.Ops.Len()
	out := make([][2]int, n)
	for k := range out {
		out[k] = [2]int{-1, -1}
	}
	if b.spec.opts.Remat != Recompute {
		return out
	}
	for k := 0; k < n; {
		key := b.blockOf(b.fwd.Ops.Path(k))
		end := k
		for end+1 < n && b.blockOf(b.fwd.Ops.Path(end+1)) == key {
			end++
		}
		if key != "" {
			for j := k; j <= end; j++ {
				out[j] = [2]int{k, end}
			}
		}
		k = end + 1
	}
	return out
}

// blockOf returns the block an operation at path belongs to: the
// program's blocks call, or the path up to its first fold iteration
// ("blocks[3]" of "blocks[3].attn.qkv"); "" for none.
func (b *stepBuilder) blockOf(path string) string {
	if call := b.spec.of.blocks; call != "" {
		if path == call || strings.HasPrefix(path, call+".") {
			return call
		}
		return ""
	}
	if i := strings.IndexByte(path, ']'); i >= 0 {
		return path[:i+1]
	}
	return ""
}

// recompute records the forward operations of segment s again, in the
// backward phase, each buffer they make (and its views) a fresh copy that
// the segment's products read instead.
func (b *stepBuilder) recompute(s [2]int) {
	b.segment, b.copies = s, map[int]int64{}
	for k := s[0]; k <= s[1]; k++ {
		op := b.fwd.Ops.At(k)
		reads := make([]int64, len(op.Reads))
		for i, id := range op.Reads {
			reads[i] = b.mapped(id)
		}
		writes := make([]int64, len(op.Writes))
		for i, id := range op.Writes {
			writes[i] = b.mapped(id)
		}
		b.record(&op, op.Label+" (recomputed)", reads, writes)
	}
}

// mapped returns the step's id for forward id: its copy when the segment
// being recomputed made it, declared at first use.
func (b *stepBuilder) mapped(id int64) int64 {
	p := b.pos(id)
	base := b.base[p]
	if b.copies == nil || b.first[base] < b.segment[0] || b.first[base] > b.segment[1] || b.fwd.Buffers.Role(base) != record.Temp {
		return b.id[p]
	}
	if c, ok := b.copies[p]; ok {
		return c
	}
	buf := b.fwd.Buffers.At(p)
	var c int64
	if buf.IsView {
		c = b.r.View(b.mapped(buf.Of), buf.Name+" (recomputed)", buf.DType, buf.Shape...)
	} else {
		c = b.declare(&buf, record.Temp, buf.Name+" (recomputed)")
	}
	b.copies[p] = c
	return c
}
