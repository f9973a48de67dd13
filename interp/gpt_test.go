package interp

import (
	"fmt"
	"strings"
	"testing"

	"memsym/count"
	"memsym/poly"
	"memsym/record"
)

// gptCourse records the course GPT's forward pass as
// shared/reference-programs.md lists it, at constants D, H, L and V = 92,
// in f64.
func gptCourse(d, h, layers int64) program {
	const v = 92
	return func(r *record.Recorder, at map[string]int64) {
		b, t := at["B"], at["T"]
		temp := func(name string, shape ...int64) int64 { return r.Temp(name, "", f64, shape...) }
		param := func(group, name string, shape ...int64) int64 { return r.Param(name, group, f64, shape...) }
		tokens := r.Input("tokens", "", record.MustDType("i64"), b, t)
		wte := param("tok_emb", "wte", v, d)
		wpe := param("pos_emb", "wpe", t, d)
		type block struct{ g1, b1, wqkv, bqkv, wp, bp, g2, b2, wu, bu, wd, bd int64 }
		blocks := make([]block, layers)
		for i := range blocks {
			g := fmt.Sprintf("blocks[%d]", i)
			blocks[i] = block{
				param(g+".ln1", "γ", d), param(g+".ln1", "β", d),
				param(g+".attn.qkv", "W", d, 3*d), param(g+".attn.qkv", "b", 3*d),
				param(g+".attn.proj", "W", d, d), param(g+".attn.proj", "b", d),
				param(g+".ln2", "γ", d), param(g+".ln2", "β", d),
				param(g+".ff.up", "W", d, 4*d), param(g+".ff.up", "b", 4*d),
				param(g+".ff.down", "W", 4*d, d), param(g+".ff.down", "b", d),
			}
		}
		gf, bf := param("ln_f", "γ", d), param("ln_f", "β", d)
		head := param("head", "W", d, v)
		op := func(label, path string, reads []int64, writes ...int64) {
			r.Op(label, path, reads, writes)
		}
		mask := temp("mask", t, t)
		op("GPT.apply/%1", "", nil, mask)
		e := temp("e", b, t, d)
		op("Embedding.apply/%0", "tok_emb", []int64{tokens, wte}, e)
		x := temp("x", b, t, d)
		op("GPT.apply/%3", "", []int64{e, wpe}, x)
		for i, p := range blocks {
			at := fmt.Sprintf("blocks[%d]", i)
			linear := func(path string, in, w, bias, width int64) int64 {
				m := temp("mm", b, t, width)
				op("Linear.apply/%4", path, []int64{in, w}, m)
				out := temp("out", b, t, width)
				op("Linear.apply/%5", path, []int64{m, bias}, out)
				return out
			}
			hn := temp("h", b, t, d)
			op("LayerNorm.apply/%3", at+".ln1", []int64{x, p.g1, p.b1}, hn)
			qkv := linear(at+".attn.qkv", hn, p.wqkv, p.bqkv, 3*d)
			var qs [3]int64
			for j := range qs {
				qs[j] = temp("qkv", b, h, t, d/h)
				op(fmt.Sprintf("SelfAttention.apply/%%%d", 6+j), at+".attn", []int64{qkv}, qs[j])
			}
			s := temp("scores", b, h, t, t)
			op("SelfAttention.apply/%13", at+".attn", []int64{qs[0], qs[1]}, s)
			sm := temp("masked", b, h, t, t)
			op("SelfAttention.apply/%17", at+".attn", []int64{s, mask}, sm)
			pr, aux := temp("probs", b, h, t, t), temp("aux", b, h, t, t)
			op("SelfAttention.apply/%21", at+".attn", []int64{sm}, pr, aux)
			o := temp("o", b, t, d)
			op("SelfAttention.apply/%22", at+".attn", []int64{pr, qs[2]}, o)
			a := linear(at+".attn.proj", o, p.wp, p.bp, d)
			x2 := temp("x2", b, t, d)
			op("Block.apply/%9", at, []int64{x, a}, x2)
			h2 := temp("h2", b, t, d)
			op("LayerNorm.apply/%3", at+".ln2", []int64{x2, p.g2, p.b2}, h2)
			u := linear(at+".ff.up", h2, p.wu, p.bu, 4*d)
			g := temp("g", b, t, 4*d)
			op("FeedForward.apply/%2", at+".ff", []int64{u}, g)
			dn := linear(at+".ff.down", g, p.wd, p.bd, d)
			x = temp("x", b, t, d)
			op("Block.apply/%14", at, []int64{x2, dn}, x)
		}
		hf := temp("h", b, t, d)
		op("LayerNorm.apply/%3", "ln_f", []int64{x, gf, bf}, hf)
		logits := temp("logits", b, t, v)
		op("Linear.apply/%4", "head", []int64{hf, head}, logits)
		r.Result(logits)
	}
}

// TestBuildGPTCourse checks the seed's symbolic numbers for the course GPT
// at its course constants, on the seed's grid and check point.
func TestBuildGPTCourse(t *testing.T) {
	prog := gptCourse(384, 6, 6)
	vars := []string{"B", "T"}
	grid := gridSources(t, vars, [][3]int64{{16, 32, 48}, {256, 512, 768}}, prog)
	m := mustBuild(t, grid, []Source{pointSource(t, vars, []int64{64, 1024}, prog)})
	for _, tt := range []struct {
		what string
		got  poly.Poly
		want string
	}{
		{"inputs", m.Inputs, "8 · B · T + 3072 · T + 85745664"},
		{"outputs", m.Outputs, "736 · B · T"},
		{"live at 10", m.Live(10), "48 · B · T² + 12288 · B · T + 8 · T²"},
		{"live at 12", m.Live(12), "144 · B · T² + 6144 · B · T + 8 · T²"},
		{"live at 19", m.Live(19), "27648 · B · T + 8 · T²"},
	} {
		if tt.got.String() != tt.want {
			t.Errorf("%s: %s, want %s", tt.what, tt.got, tt.want)
		}
	}
	firsts := map[string]int{}
	for _, c := range m.Candidates {
		firsts[c.Poly.String()] = c.Op
	}
	for poly, op := range map[string]int{
		"48 · B · T² + 12288 · B · T + 8 · T²": 10,
		"144 · B · T² + 6144 · B · T + 8 · T²": 12,
		"27648 · B · T + 8 · T²":               19,
	} {
		if firsts[poly] != op {
			t.Errorf("candidate %s first at operation %d, want %d", poly, firsts[poly], op)
		}
	}
	if d := m.Denominator(); d.Int64() != 1 {
		t.Errorf("Denominator() = %s, want 1", d)
	}
}

// TestBuildGPTSmall checks the seed's numbers at D = 64, H = 2, L = 2,
// B = 2, T = 16, from polynomials interpolated around that point, and that
// every operation's live bytes are record's count at grid and other points.
func TestBuildGPTSmall(t *testing.T) {
	prog := gptCourse(64, 2, 2)
	vars := []string{"B", "T"}
	grid := [][3]int64{{1, 2, 3}, {8, 16, 24}}
	m := mustBuild(t, gridSources(t, vars, grid, prog), []Source{pointSource(t, vars, []int64{5, 40}, prog)})
	at := []int64{2, 16}
	if got := evalAt(t, m.Inputs, vars, at); got.String() != "903424" {
		t.Errorf("inputs at B = 2, T = 16: %s, want 903424", got)
	}
	if got := evalAt(t, m.Outputs, vars, at); got.String() != "23552" {
		t.Errorf("outputs: %s, want 23552", got)
	}
	var peak poly.Rat
	peakOp := 0
	for op := 1; op <= len(m.LiveAt); op++ {
		if v := evalAt(t, m.Live(op), vars, at); peakOp == 0 || v.Cmp(peak) > 0 {
			peak, peakOp = v, op
		}
	}
	if peak.String() != "149504" || peakOp != 19 {
		t.Errorf("peak %s at operation %d, want 149504 at 19", peak, peakOp)
	}
	// count.At is the truth at any point, on the grid or off it.
	for _, point := range [][]int64{{2, 16}, {3, 8}, {1, 1}, {7, 33}, {100, 1000}} {
		rec := recordAt(t, vars, point, prog)
		c := count.At(rec)
		var wrong []string
		for op, want := range liveBytes(rec) {
			if got := evalAt(t, m.Live(op+1), vars, point); !got.Equal(want) || !got.Equal(c.Live[op]) {
				wrong = append(wrong, fmt.Sprintf("operation %d: %s, want %s", op+1, got, want))
			}
		}
		for _, tt := range []struct {
			what      string
			got, want poly.Rat
		}{
			{"params", evalAt(t, m.Params, vars, point), c.Params},
			{"inputs", evalAt(t, m.Inputs, vars, point), c.Inputs},
			{"outputs", evalAt(t, m.Outputs, vars, point), c.Outputs},
			{"peak", evalAt(t, m.Live(c.PeakOp), vars, point), c.Peak},
		} {
			if !tt.got.Equal(tt.want) {
				wrong = append(wrong, fmt.Sprintf("%s: %s, want %s", tt.what, tt.got, tt.want))
			}
		}
		if len(wrong) > 0 {
			t.Errorf("at %v:\n%s", point, strings.Join(wrong, "\n"))
		}
	}
}
