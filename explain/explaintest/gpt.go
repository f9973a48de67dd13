// Package explaintest builds explain.Inputs for tests: the counts of small
// programs computed here from their operations, so that tests of the
// chapter and of its formats have real, self-consistent numbers.
package explaintest

import (
	"fmt"

	"memsym/poly"
)

// gptConsts are the course GPT's constants: width D, heads H, blocks L and
// vocabulary V.
type gptConsts struct{ D, H, L, V int64 }

// gpt builds the course GPT's forward pass (`GPT.apply`, realization f64)
// operation by operation, as the design note on the reference programs
// lays it out.
func gpt(c gptConsts) *program {
	B, T := poly.Var("B"), poly.Var("T")
	k := func(n int64) poly.Poly { return poly.Const(poly.Int(n)) }
	btd := func(m int64) []poly.Poly { return []poly.Poly{B, T, k(m * c.D)} }
	heads := []poly.Poly{B, k(c.H), T, k(c.D / c.H)}
	scores := []poly.Poly{B, k(c.H), T, T}

	p := newProgram(8)
	p.input("tokens", false, B, T)
	p.input("wte", true, k(c.V), k(c.D))
	p.input("wpe", true, T, k(c.D))
	p.do("GPT.apply/%1", "", nil, []string{"mask"}, []poly.Poly{T, T})
	p.do("Embedding.apply/%0", "tok_emb", []string{"tokens", "wte"}, []string{"e"}, btd(1))
	p.do("GPT.apply/%3", "", []string{"e", "wpe"}, []string{"x0"}, btd(1))
	x := "x0"
	for i := int64(0); i < c.L; i++ {
		at := fmt.Sprintf("blocks[%d]", i)
		n := func(s string) string { return at + "." + s }
		for _, w := range []struct {
			name string
			size []poly.Poly
		}{
			{"ln1.g", []poly.Poly{k(c.D)}}, {"ln1.b", []poly.Poly{k(c.D)}},
			{"qkv.W", []poly.Poly{k(c.D), k(3 * c.D)}}, {"qkv.b", []poly.Poly{k(3 * c.D)}},
			{"proj.W", []poly.Poly{k(c.D), k(c.D)}}, {"proj.b", []poly.Poly{k(c.D)}},
			{"ln2.g", []poly.Poly{k(c.D)}}, {"ln2.b", []poly.Poly{k(c.D)}},
			{"up.W", []poly.Poly{k(c.D), k(4 * c.D)}}, {"up.b", []poly.Poly{k(4 * c.D)}},
			{"down.W", []poly.Poly{k(4 * c.D), k(c.D)}}, {"down.b", []poly.Poly{k(c.D)}},
		} {
			p.input(n(w.name), true, w.size...)
		}
		p.do("LayerNorm.apply/%3", n("ln1"), []string{x, n("ln1.g"), n("ln1.b")}, []string{n("h")}, btd(1))
		p.do("Linear.apply/%4", n("attn.qkv"), []string{n("h"), n("qkv.W")}, []string{n("qkv0")}, btd(3))
		p.do("Linear.apply/%5", n("attn.qkv"), []string{n("qkv0"), n("qkv.b")}, []string{n("qkv")}, btd(3))
		p.do("SelfAttention.apply/%6", n("attn"), []string{n("qkv")}, []string{n("q")}, heads)
		p.do("SelfAttention.apply/%7", n("attn"), []string{n("qkv")}, []string{n("k")}, heads)
		p.do("SelfAttention.apply/%8", n("attn"), []string{n("qkv")}, []string{n("v")}, heads)
		p.do("SelfAttention.apply/%13", n("attn"), []string{n("q"), n("k")}, []string{n("scores")}, scores)
		p.do("SelfAttention.apply/%17", n("attn"), []string{n("scores"), "mask"}, []string{n("masked")}, scores)
		p.do("SelfAttention.apply/%21", n("attn"), []string{n("masked")}, []string{n("probs"), n("aux")}, scores, scores)
		p.do("SelfAttention.apply/%22", n("attn"), []string{n("probs"), n("v")}, []string{n("o")}, btd(1))
		p.do("Linear.apply/%4", n("attn.proj"), []string{n("o"), n("proj.W")}, []string{n("a0")}, btd(1))
		p.do("Linear.apply/%5", n("attn.proj"), []string{n("a0"), n("proj.b")}, []string{n("a")}, btd(1))
		p.do("Block.apply/%9", at, []string{x, n("a")}, []string{n("x2")}, btd(1))
		p.do("LayerNorm.apply/%3", n("ln2"), []string{n("x2"), n("ln2.g"), n("ln2.b")}, []string{n("h2")}, btd(1))
		p.do("Linear.apply/%4", n("ff.up"), []string{n("h2"), n("up.W")}, []string{n("u0")}, btd(4))
		p.do("Linear.apply/%5", n("ff.up"), []string{n("u0"), n("up.b")}, []string{n("u")}, btd(4))
		p.do("FeedForward.apply/%2", n("ff"), []string{n("u")}, []string{n("g")}, btd(4))
		p.do("Linear.apply/%4", n("ff.down"), []string{n("g"), n("down.W")}, []string{n("d0")}, btd(1))
		p.do("Linear.apply/%5", n("ff.down"), []string{n("d0"), n("down.b")}, []string{n("d")}, btd(1))
		p.do("Block.apply/%14", at, []string{n("x2"), n("d")}, []string{n("x")}, btd(1))
		x = n("x")
	}
	p.input("ln_f.g", true, k(c.D))
	p.input("ln_f.b", true, k(c.D))
	p.input("head", true, k(c.D), k(c.V))
	p.do("LayerNorm.apply/%3", "ln_f", []string{x, "ln_f.g", "ln_f.b"}, []string{"xf"}, btd(1))
	p.do("Linear.apply/%4", "head", []string{"xf", "head"}, []string{"logits"}, []poly.Poly{B, T, k(c.V)})
	p.result = "logits"
	return p
}
