package page

import (
	"fmt"
	"slices"

	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// StoredType is a type a parameter group may be stored in on the page.
type StoredType string

// The stored types. Each re-types every element of a group's parameter
// buffers (see Bytes); Recorded keeps the recording's own bytes.
const (
	Recorded StoredType = "recorded"
	F32      StoredType = "f32"
	BF16     StoredType = "bf16"
	F16      StoredType = "f16"
	F8       StoredType = "f8"
	Int8     StoredType = "int8"
	Int4     StoredType = "int4"
)

// StoredTypes lists the stored types in the order the page offers them.
var StoredTypes = []StoredType{Recorded, F32, BF16, F16, F8, Int8, Int4}

// Int4Group is the number of consecutive elements of a parameter buffer
// that share one f32 scale when the buffer is stored as int4.
const Int4Group = 32

// Bytes returns the bytes of one parameter buffer of e elements stored as
// t, exactly:
//
//	f32         4·e
//	bf16, f16   2·e
//	f8, int8    e
//	int4        e/2 + 4·⌈e/32⌉: half a byte per element, and one f32 scale
//	            for each group of 32 consecutive elements of the buffer,
//	            the last group perhaps shorter
//
// Recorded is not a type of elements: it returns recorded, the buffer's
// bytes in the recording.
func (t StoredType) Bytes(e, recorded poly.Rat) poly.Rat {
	switch t {
	case F32:
		return e.Mul(poly.Int(4))
	case BF16, F16:
		return e.Mul(poly.Int(2))
	case F8, Int8:
		return e
	case Int4:
		return e.Mul(poly.Frac(1, 2)).Add(ceilRat(e.Quo(poly.Int(Int4Group))).Mul(poly.Int(4)))
	}
	return recorded
}

// ceilRat returns the least integer at least x.
func ceilRat(x poly.Rat) poly.Rat {
	n, d := x.Num(), x.Den()
	q, m := n.DivMod(n, d, d) // Euclidean: 0 ≤ m < d
	if m.Sign() != 0 {
		q.Add(q, bigOne)
	}
	return poly.FromBigInt(q)
}

// Group is one parameter group: the parameter buffers whose group, the
// folds' iterations taken out, is Name ("blocks[3].attn.qkv" is in
// "blocks.attn.qkv"). A stored type chosen for a group re-types every
// element of its buffers.
type Group struct {
	Name string // "" for parameters declared without a group
	// Folded is how many distinct groups of the recording were folded
	// into this one (6 for blocks[0] to blocks[5]); 1 when none.
	Folded int
	// Types are the buffers' recorded types, in order of first
	// declaration; the zero DType stands for buffers given in bytes.
	Types []record.DType
	Parts []Part
}

// Part is a set of a group's parameter buffers alike: the same recorded
// type and the same polynomials.
type Part struct {
	DType record.DType // the recorded type; zero when the size was given in bytes
	// Elements is one buffer's elements, its bytes over its type's size:
	// exact, for a buffer's bytes are its elements times bits/8. It is
	// zero for buffers given in bytes, which no stored type re-types.
	Elements poly.Poly
	Bytes    poly.Poly // one buffer's recorded bytes
	Count    int       // the buffers
	InResult int       // of which the result returns
}

// Typed reports whether the part's buffers have elements that a stored
// type re-types.
func (p *Part) Typed() bool { return !p.DType.IsZero() }

// BytesAt returns the bytes of one of the part's buffers stored as t at
// the point at (aligned with the model's dimensions), and its elements.
func (p *Part) BytesAt(t StoredType, at []int64) (bytes, elements poly.Rat) {
	recorded := p.Bytes.EvalInts(at)
	if !p.Typed() {
		return recorded, poly.Rat{}
	}
	e := p.Elements.EvalInts(at)
	return t.Bytes(e, recorded), e
}

// BytesAt returns the group's bytes stored as t at the point at, and its
// elements (of the buffers with a type).
func (g *Group) BytesAt(t StoredType, at []int64) (bytes, elements poly.Rat) {
	for i := range g.Parts {
		p := &g.Parts[i]
		b, e := p.BytesAt(t, at)
		n := poly.Int(int64(p.Count))
		bytes = bytes.Add(b.Mul(n))
		elements = elements.Add(e.Mul(n))
	}
	return bytes, elements
}

// Groups returns m's parameter groups in order of first declaration, each
// buffer's elements interpolated from its bytes.
func Groups(m *model.Model) ([]Group, error) {
	var groups []Group
	index := map[string]int{}
	raw := map[string]bool{}
	results := resultBases(m.Structure)
	for i := range m.Structure.Buffers.Len() {
		b := m.Structure.Buffers.At(i)
		if b.IsView || b.Role != record.Param {
			continue
		}
		name, _ := record.SplitPath(b.Group)
		k, ok := index[name]
		if !ok {
			k = len(groups)
			index[name] = k
			groups = append(groups, Group{Name: name})
		}
		g := &groups[k]
		if !raw[b.Group] {
			raw[b.Group] = true
			g.Folded++
		}
		if !slices.Contains(g.Types, b.DType) {
			g.Types = append(g.Types, b.DType)
		}
		bytes := poly.WithVars(m.Bytes(i), m.Vars)
		var elements poly.Poly
		if !b.DType.IsZero() {
			if b.DType.Bits <= 0 {
				return nil, fmt.Errorf("parameter %q (buffer %d) has a type of %d bits: expected a positive size", b.Name, b.ID, b.DType.Bits)
			}
			elements = bytes.Scale(poly.Frac(8, int64(b.DType.Bits)))
		}
		inResult := 0
		if results[b.ID] {
			inResult = 1
		}
		g.add(Part{DType: b.DType, Elements: elements, Bytes: bytes, Count: 1, InResult: inResult})
	}
	return groups, nil
}

// add adds a part to the group, merging it with an alike one.
func (g *Group) add(p Part) {
	for i := range g.Parts {
		q := &g.Parts[i]
		if q.DType == p.DType && q.Bytes.Equal(p.Bytes) {
			q.Count += p.Count
			q.InResult += p.InResult
			return
		}
	}
	g.Parts = append(g.Parts, p)
}

// resultBases returns the ids of the buffers the result returns, through
// views.
func resultBases(rec *record.Recording) map[int64]bool {
	out := map[int64]bool{}
	for _, id := range rec.Result {
		out[rec.Base(id).ID] = true
	}
	return out
}

// Title returns the group's name for people: "blocks.attn.qkv ×6", "(no
// group)".
func (g *Group) Title() string {
	name := g.Name
	if name == "" {
		name = "(no group)"
	}
	if g.Folded > 1 {
		name += fmt.Sprintf(" ×%d", g.Folded)
	}
	return name
}

// TypeNames returns the group's recorded types for people: "f64", "i4,
// f32", "bytes" for buffers given in bytes.
func (g *Group) TypeNames() string {
	s := ""
	for i, t := range g.Types {
		if i > 0 {
			s += ", "
		}
		if t.IsZero() {
			s += "bytes"
		} else {
			s += t.String()
		}
	}
	return s
}
