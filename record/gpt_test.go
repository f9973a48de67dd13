package record

import (
	"strconv"
	"testing"
)

// courseGPT records the course GPT's forward pass as the reference programs'
// design note lays it out (shared/reference-programs.md), so that the counts
// can be checked against the numbers the seed gives for it.
func courseGPT(t testing.TB, b, tt, d, h, layers, v int64) *Recording {
	t.Helper()
	f64, i64 := MustDType("f64"), MustDType("i64")
	r := NewRecorder("GPT.apply",
		[]Dim{{"B", b}, {"T", tt}},
		[]Const{{"D", itoa(d)}, {"H", itoa(h)}, {"L", itoa(layers)}}, "f64")
	tokens := r.Input("tokens", "", i64, b, tt)
	wte := r.Param("wte", "tok_emb", f64, v, d)
	wpe := r.Param("wpe", "", f64, tt, d)
	type block struct{ g1, b1, wqkv, bqkv, wproj, bproj, g2, b2, wup, bup, wdown, bdown int64 }
	blocks := make([]block, layers)
	for i := range blocks {
		blocks[i] = block{
			r.Param("ln1.g", "blocks", f64, d), r.Param("ln1.b", "blocks", f64, d),
			r.Param("attn.qkv.w", "blocks", f64, d, 3*d), r.Param("attn.qkv.b", "blocks", f64, 3*d),
			r.Param("attn.proj.w", "blocks", f64, d, d), r.Param("attn.proj.b", "blocks", f64, d),
			r.Param("ln2.g", "blocks", f64, d), r.Param("ln2.b", "blocks", f64, d),
			r.Param("ff.up.w", "blocks", f64, d, 4*d), r.Param("ff.up.b", "blocks", f64, 4*d),
			r.Param("ff.down.w", "blocks", f64, 4*d, d), r.Param("ff.down.b", "blocks", f64, d),
		}
	}
	gf, bf := r.Param("ln_f.g", "ln_f", f64, d), r.Param("ln_f.b", "ln_f", f64, d)
	head := r.Param("head", "head", f64, d, v)

	op := func(label, path string, reads []int64, name string, shape ...int64) int64 {
		out := r.Temp(name, "", f64, shape...)
		r.Op(label, path, reads, []int64{out})
		return out
	}
	ids := func(x ...int64) []int64 { return x }
	mask := op("GPT.apply/%1", "", nil, "mask", tt, tt)
	e := op("Embedding.apply/%0", "tok_emb", ids(tokens, wte), "e", b, tt, d)
	x := op("GPT.apply/%3", "", ids(e, wpe), "x", b, tt, d)
	for i, w := range blocks {
		p := "blocks[" + itoa(int64(i)) + "]"
		hh := op("LayerNorm.apply/%3", p+".ln1", ids(x, w.g1, w.b1), "h", b, tt, d)
		t1 := op("Linear.apply/%4", p+".attn.qkv", ids(hh, w.wqkv), "%4", b, tt, 3*d)
		qkv := op("Linear.apply/%5", p+".attn.qkv", ids(t1, w.bqkv), "%5", b, tt, 3*d)
		q := op("SelfAttention.apply/%6", p+".attn", ids(qkv), "q", b, h, tt, d/h)
		k := op("SelfAttention.apply/%7", p+".attn", ids(qkv), "k", b, h, tt, d/h)
		vv := op("SelfAttention.apply/%8", p+".attn", ids(qkv), "v", b, h, tt, d/h)
		s := op("SelfAttention.apply/%13", p+".attn", ids(q, k), "scores", b, h, tt, tt)
		m := op("SelfAttention.apply/%17", p+".attn", ids(s, mask), "masked", b, h, tt, tt)
		pr := r.Temp("probs", "", f64, b, h, tt, tt)
		aux := r.Temp("aux", "", f64, b, h, tt, tt)
		r.Op("SelfAttention.apply/%21", p+".attn", ids(m), ids(pr, aux))
		o := op("SelfAttention.apply/%22", p+".attn", ids(pr, vv), "o", b, tt, d)
		t2 := op("Linear.apply/%4", p+".attn.proj", ids(o, w.wproj), "%4", b, tt, d)
		a := op("Linear.apply/%5", p+".attn.proj", ids(t2, w.bproj), "%5", b, tt, d)
		x2 := op("Block.apply/%9", p, ids(x, a), "x2", b, tt, d)
		h2 := op("LayerNorm.apply/%3", p+".ln2", ids(x2, w.g2, w.b2), "h2", b, tt, d)
		t3 := op("Linear.apply/%4", p+".ff.up", ids(h2, w.wup), "%4", b, tt, 4*d)
		u := op("Linear.apply/%5", p+".ff.up", ids(t3, w.bup), "%5", b, tt, 4*d)
		g := op("FeedForward.apply/%2", p+".ff", ids(u), "g", b, tt, 4*d)
		t4 := op("Linear.apply/%4", p+".ff.down", ids(g, w.wdown), "%4", b, tt, d)
		dd := op("Linear.apply/%5", p+".ff.down", ids(t4, w.bdown), "%5", b, tt, d)
		x = op("Block.apply/%14", p, ids(x2, dd), "x", b, tt, d)
	}
	y := op("LayerNorm.apply/%3", "ln_f", ids(x, gf, bf), "y", b, tt, d)
	logits := op("Linear.apply/%4", "head", ids(y, head), "logits", b, tt, v)
	r.Result(logits)
	rec, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
