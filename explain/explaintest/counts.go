package explaintest

import (
	"sort"
	"strings"

	"memsym/explain"
	"memsym/poly"
)

// pointCounts counts p at the assignment at (its names in order), as
// memsym counts a recording: the live bytes at each operation, the peak at
// the first operation that reaches it, the calls' shares and own peaks.
func pointCounts(p *program, at []explain.NameInt, dtype string) *explain.PointCounts {
	env := map[string]int64{}
	for _, a := range at {
		env[a.Name] = a.Value
	}
	pc := &explain.PointCounts{At: at, Ops: len(p.ops), Launches: len(p.ops)}
	params, elements := p.inputBytes(true)
	inputs, _ := p.inputBytes(false)
	pc.Params, pc.ParamElements, pc.Inputs = eval(params, env), eval(elements, env), eval(inputs, env)
	for i, lb := range p.liveBytes() {
		v := eval(lb, env)
		pc.Live = append(pc.Live, v)
		if v.Cmp(pc.Peak) > 0 {
			pc.Peak, pc.PeakOp = v, i+1
		}
	}
	peak := p.ops[pc.PeakOp-1]
	pc.PeakLabel, pc.PeakPath = peak.label, peak.path
	pc.Outputs = eval(p.bytes(p.bufs[p.result]), env)
	pc.Needs = pc.Inputs.Add(pc.Peak)
	pc.Placed = placed(p, env)

	life := p.lives()
	for _, name := range p.liveAt(pc.PeakOp-1, life) {
		b := p.bufs[name]
		pc.LiveAtPeak = append(pc.LiveAtPeak, explain.LiveBuffer{
			Name: b.label, DType: dtype, Shape: shapeAt(b, env),
			Bytes: eval(p.bytes(b), env), MadeBy: b.madeBy,
		})
	}
	sort.SliceStable(pc.LiveAtPeak, func(i, j int) bool {
		return pc.LiveAtPeak[i].Bytes.Cmp(pc.LiveAtPeak[j].Bytes) > 0
	})
	pc.Calls = calls(p, env, pc.PeakOp-1, 3)
	return pc
}

// folded writes a call's path with a fold's iterations together:
// blocks[1].ff.up is blocks.ff.up.
func folded(path string) string {
	parts := strings.Split(path, ".")
	for i, s := range parts {
		if j := strings.IndexByte(s, '['); j >= 0 {
			parts[i] = s[:j]
		}
	}
	return strings.Join(parts, ".")
}

// under reports whether the call path is the call call or inside it.
func under(path, call string) bool {
	return call == "" || path == call || strings.HasPrefix(path, call+".")
}

// calls returns the calls' rows down to maxDepth, parents first, each with
// its share of the live set at operation peak and its own peak.
func calls(p *program, env map[string]int64, peak, maxDepth int) []explain.CallRow {
	life := p.lives()
	var paths []string
	seen := map[string]bool{}
	iterations := map[string]map[string]bool{}
	for _, o := range p.ops {
		parts := strings.Split(folded(o.path), ".")
		for d := 1; d <= len(parts) && d <= maxDepth && o.path != ""; d++ {
			c := strings.Join(parts[:d], ".")
			if !seen[c] {
				seen[c] = true
				paths = append(paths, c)
				iterations[c] = map[string]bool{}
			}
			iterations[c][strings.SplitN(o.path, ".", 2)[0]] = true
		}
	}
	made := func(at int, call string, own bool) poly.Rat {
		sum := poly.Int(0)
		for _, name := range p.liveAt(at, life) {
			b := p.bufs[name]
			if (own && b.madeBy == "") || (!own && call != "" && under(folded(b.madeBy), call)) {
				sum = sum.Add(eval(p.bytes(b), env))
			}
		}
		return sum
	}
	row := func(call string, depth, iters int, own bool) explain.CallRow {
		r := explain.CallRow{Path: call, Depth: depth, Iterations: iters, Share: made(peak, call, own)}
		for i, o := range p.ops {
			if (own && o.path == "") || (!own && under(folded(o.path), call)) {
				if v := made(i, call, own); v.Cmp(r.OwnPeak) > 0 {
					r.OwnPeak = v
				}
			}
		}
		return r
	}
	rows := []explain.CallRow{row("", 0, 1, true)}
	for _, c := range paths {
		rows = append(rows, row(c, strings.Count(c, ".")+1, len(iterations[c]), false))
	}
	return rows
}

// placed places every buffer at an offset by its life, the largest first,
// each at the lowest offset where it fits beside those live with it, and
// returns the bytes that takes, rounded up to 64.
func placed(p *program, env map[string]int64) poly.Rat {
	life := p.lives()
	type slot struct {
		life       [2]int
		start, end int64
	}
	var names []string
	for name := range life {
		names = append(names, name)
	}
	size := func(name string) int64 {
		n, _ := eval(p.bytes(p.bufs[name]), env).Int64()
		return n
	}
	sort.Slice(names, func(i, j int) bool {
		si, sj := size(names[i]), size(names[j])
		if si != sj {
			return si > sj
		}
		return names[i] < names[j]
	})
	var slots []slot
	var top int64
	for _, name := range names {
		l, n := life[name], size(name)
		var clash []slot
		for _, s := range slots {
			if s.life[0] <= l[1] && l[0] <= s.life[1] {
				clash = append(clash, s)
			}
		}
		sort.Slice(clash, func(i, j int) bool { return clash[i].start < clash[j].start })
		var off int64
		for _, s := range clash {
			if off+n <= s.start {
				break
			}
			if s.end > off {
				off = s.end
			}
		}
		slots = append(slots, slot{l, off, off + n})
		top = max(top, off+n)
	}
	return poly.Int((top + 63) / 64 * 64)
}
