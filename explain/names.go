package explain

import (
	"sort"
	"strconv"
	"strings"

	"memsym/doc"
	"memsym/model"
	"memsym/poly"
	"memsym/record"
)

// liveAt returns the positions of the buffers of m live at operation op
// with bytes, in order.
func liveAt(m *model.Model, op int) []int {
	var out []int
	for i := range m.Structure.Buffers.Len() {
		if m.Lives[i].Live(op) && !m.Bytes(i).IsZero() {
			out = append(out, i)
		}
	}
	return out
}

// largestOf names the largest of the buffers at positions of m, by their
// bytes at ref: those tied for largest together. It is nil for none.
func largestOf(m *model.Model, positions []int, ref map[string]int64) *BufferName {
	rec := m.Structure
	best := -1
	var top poly.Rat
	var tied []int
	for _, i := range positions {
		v, err := m.Bytes(i).EvalInt(ref)
		if err != nil {
			continue
		}
		switch c := v.Cmp(top); {
		case best < 0 || c > 0:
			best, top, tied = i, v, []int{i}
		case c == 0 && m.Bytes(i).Equal(m.Bytes(best)):
			tied = append(tied, i)
		}
	}
	if best < 0 {
		return nil
	}
	b := rec.Buffers.At(best)
	n := &BufferName{Bytes: m.Bytes(best), Count: len(tied), at: top}
	path := func(i int) string {
		if first := int(m.Lives[i].First); first > 0 {
			return rec.Ops.Path(first - 1)
		}
		return ""
	}
	n.Path = path(best)
	seen := map[string]bool{}
	for _, i := range tied {
		name := rec.Buffers.Name(i)
		if name == "" {
			name = "buffer " + strconv.FormatInt(rec.Buffers.ID(i), 10)
		}
		if !seen[name] {
			seen[name] = true
			n.Names = append(n.Names, name)
		}
		n.Path = commonCall(n.Path, path(i))
	}
	n.Call = callWords(n.Path)
	if b.Shape != nil {
		n.Size = symbolicSize(m, best)
		n.Kind = kindOf(b.DType)
	}
	return n
}

// maxGrowing bounds the parameters growing with a dimension that the
// chapter names.
const maxGrowing = 3

// paramName names the parameter at position pos of m by its name and its
// group, the call that holds it.
func paramName(m *model.Model, pos int) *BufferName {
	b := m.Structure.Buffers.At(pos)
	name := b.Name
	if name == "" {
		name = "buffer " + strconv.FormatInt(b.ID, 10)
	}
	n := &BufferName{Names: []string{name}, Count: 1, Path: b.Group, Call: callWords(b.Group), Bytes: m.Bytes(pos)}
	if b.Shape != nil {
		n.Size = symbolicSize(m, pos)
		n.Kind = kindOf(b.DType)
	}
	return n
}

// commonCall is the innermost call that holds both paths, "" for the
// entry: blocks[0].ffn for blocks[0].ffn.gate and blocks[0].ffn.up.
func commonCall(a, b string) string {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	n := 0
	for n < len(pa) && n < len(pb) && pa[n] == pb[n] {
		n++
	}
	return strings.Join(pa[:n], ".")
}

// candidateNames names each candidate, at the operations ops of m, by its
// largest live buffer at its point of refs; but when more than one is named, by its
// largest buffer that is not live at all of them, and then common names
// the largest of those live at all, if it is larger than one named.
func candidateNames(m *model.Model, ops []int, refs []map[string]int64) (names []*BufferName, common *BufferName) {
	lives := make([][]int, len(ops))
	for k, op := range ops {
		lives[k] = liveAt(m, op)
	}
	shared := map[int]int{}
	for _, l := range lives {
		for _, i := range l {
			shared[i]++
		}
	}
	var everywhere []int
	for i, n := range shared {
		if n == len(ops) && len(ops) > 1 {
			everywhere = append(everywhere, i)
		}
	}
	sort.Ints(everywhere)
	for k, l := range lives {
		var own []int
		for _, i := range l {
			if shared[i] < len(ops) || len(ops) < 2 {
				own = append(own, i)
			}
		}
		n := largestOf(m, own, refs[k])
		if n == nil {
			n = largestOf(m, l, refs[k])
		}
		names = append(names, n)
	}
	for k, n := range names {
		if c := largestOf(m, everywhere, refs[k]); c != nil && n != nil && n.at.Cmp(c.at) < 0 {
			return names, c
		}
	}
	return names, nil
}

// kindOf says what a stored type's elements are, in words.
func kindOf(t record.DType) string {
	switch {
	case strings.HasPrefix(t.Name, "f"), strings.HasPrefix(t.Name, "bf"):
		return "reals"
	case strings.HasPrefix(t.Name, "i"), strings.HasPrefix(t.Name, "u"):
		return "integers"
	case t.Name == "bool":
		return "booleans"
	}
	return "elements"
}

// symbolicSize writes the elements of buffer pos of m in the dimensions
// and constants, axis by axis (B · T · 4D), or nil when its axes cannot be
// told apart. Each axis at the model's first grid point is matched with a
// dimension, a product of two, or a number; a match is kept only if the
// axes' product is exactly the buffer's interpolated elements, so the size
// written is the polynomial's own. A number is named by a constant whose
// value it is (D), or a small multiple of one (4D), when no other
// constant fits as well.
func symbolicSize(m *model.Model, pos int) doc.Math {
	rec := m.Structure
	b := rec.Buffers.At(pos)
	elements := poly.Int(1)
	for _, n := range b.Shape {
		elements = elements.Mul(poly.Int(n))
	}
	if elements.IsZero() || b.Bytes.IsZero() {
		return nil
	}
	perElement := b.Bytes.Quo(elements)
	want := m.Bytes(pos).Scale(poly.Int(1).Quo(perElement))
	at := rec.Header.Dims
	options := make([][]axisOption, len(b.Shape))
	combos := 1
	for i, n := range b.Shape {
		for _, d := range at {
			if d.Value == n {
				options[i] = append(options[i], axisOption{vars: []string{d.Name}})
			}
		}
		for _, d := range at {
			if k := n - d.Value; k != 0 && k >= -16 && k <= 16 && n > 0 {
				options[i] = append(options[i], axisOption{vars: []string{d.Name}, plus: k})
			}
		}
		for j, d := range at {
			for _, e := range at[j:] {
				if d.Value*e.Value == n && d.Value > 1 && e.Value > 1 {
					options[i] = append(options[i], axisOption{vars: []string{d.Name, e.Name}})
				}
			}
		}
		options[i] = append(options[i], axisOption{number: n})
		combos *= len(options[i])
		if combos > 4096 {
			return nil
		}
	}
	choice := make([]int, len(b.Shape))
	for {
		p := poly.Const(poly.Int(1))
		for i, c := range choice {
			p = p.Mul(options[i][c].poly())
		}
		if p.Equal(want) || (len(choice) == 0 && want.Equal(poly.Const(poly.Int(1)))) {
			axes := make([]axisOption, len(choice))
			for i, c := range choice {
				axes[i] = options[i][c]
			}
			return sizeMath(axes, constValues(m.Header().Consts))
		}
		i := len(choice) - 1
		for i >= 0 && choice[i] == len(options[i])-1 {
			choice[i] = 0
			i--
		}
		if i < 0 {
			return nil
		}
		choice[i]++
	}
}

// axisOption is what an axis may be: the product of vars plus plus, or
// number.
type axisOption struct {
	vars   []string
	plus   int64
	number int64
}

func (a axisOption) poly() poly.Poly {
	if len(a.vars) == 0 {
		return poly.Const(poly.Int(a.number))
	}
	p := poly.Var(a.vars[0])
	for _, v := range a.vars[1:] {
		p = p.Mul(poly.Var(v))
	}
	return p.Add(poly.Const(poly.Int(a.plus)))
}

// atoms writes a dimension's axis: B, or (P + 1).
func (a axisOption) atoms() ([]doc.Atom, string) {
	if a.plus == 0 {
		return []doc.Atom{doc.V(a.vars[0])}, a.vars[0]
	}
	sign, k := "+", a.plus
	if k < 0 {
		sign, k = "−", -k
	}
	return []doc.Atom{doc.S("("), doc.V(a.vars[0]), doc.S(sign), doc.NInt(k), doc.S(")")}, a.vars[0] + sign + strconv.FormatInt(k, 10)
}

// namedConst is a constant with an integer value.
type namedConst struct {
	name  string
	value int64
}

func constValues(cs []record.Const) []namedConst {
	var out []namedConst
	for _, c := range cs {
		if v, err := strconv.ParseInt(c.Value, 10, 64); err == nil {
			out = append(out, namedConst{c.Name, v})
		}
	}
	return out
}

// sizeMath writes axes as a product: the numbers that no constant names
// multiplied into one leading factor, then each factor in the order of its
// first axis, a repeated one as a power: 2 · B · T², B · T · 4D.
func sizeMath(axes []axisOption, consts []namedConst) doc.Math {
	coef := int64(1)
	type factor struct {
		atoms []doc.Atom
		key   string
		times int
	}
	var factors []*factor
	add := func(key string, atoms []doc.Atom) {
		for _, f := range factors {
			if f.key == key {
				f.times++
				return
			}
		}
		factors = append(factors, &factor{atoms: atoms, key: key, times: 1})
	}
	for _, a := range axes {
		if len(a.vars) > 0 && a.plus != 0 {
			atoms, key := a.atoms()
			add(key, atoms)
			continue
		}
		if len(a.vars) > 0 {
			for _, v := range a.vars {
				add(v, []doc.Atom{doc.V(v)})
			}
			continue
		}
		if a.number == 1 {
			continue
		}
		atoms, key := constAtoms(a.number, consts)
		if atoms == nil {
			if c, ok := poly.MulInt64(coef, a.number); ok {
				coef = c
				continue
			}
			atoms, key = []doc.Atom{doc.NInt(a.number)}, strconv.FormatInt(a.number, 10)
		}
		add(key, atoms)
	}
	var m doc.Math
	if coef != 1 || len(factors) == 0 {
		m = append(m, doc.NInt(coef))
	}
	for _, f := range factors {
		if len(m) > 0 {
			m = append(m, doc.S("·"))
		}
		if len(f.atoms) == 1 && f.atoms[0].Var != "" {
			m = append(m, doc.VExp(f.atoms[0].Var, f.times))
			continue
		}
		if f.times > 1 && f.atoms[0].Sign == "(" {
			m = append(m, f.atoms[:len(f.atoms)-1]...)
			m = append(m, doc.Atom{Sign: ")", Exp: f.times})
			continue
		}
		for k := 0; k < f.times; k++ {
			if k > 0 {
				m = append(m, doc.S("·"))
			}
			m = append(m, f.atoms...)
		}
	}
	return m
}

// constAtoms names n by the program's constants: the one whose value it
// is (D), else a multiple k·C, k ≤ 16, of one (4D), else a quotient of two
// (D/H); nil when none does, or when more than one name fits, so that a
// name is never a guess between two.
func constAtoms(n int64, consts []namedConst) ([]doc.Atom, string) {
	if n < 2 {
		return nil, ""
	}
	var exact []string
	for _, c := range consts {
		if c.value == n {
			exact = append(exact, c.name)
		}
	}
	switch len(exact) {
	case 1:
		return []doc.Atom{doc.V(exact[0])}, exact[0]
	case 0:
	default:
		return nil, ""
	}
	var fits [][]doc.Atom
	var keys []string
	for k := int64(2); k <= 16; k++ {
		for _, c := range consts {
			if c.value >= 2 && c.value*k == n {
				fits = append(fits, []doc.Atom{doc.NInt(k), doc.V(c.name)})
				keys = append(keys, strconv.FormatInt(k, 10)+c.name)
			}
		}
	}
	for _, a := range consts {
		for _, b := range consts {
			if b.value >= 2 && a.value > b.value && a.value%b.value == 0 && a.value/b.value == n {
				fits = append(fits, []doc.Atom{doc.V(a.name), doc.S("/"), doc.V(b.name)})
				keys = append(keys, a.name+"/"+b.name)
			}
		}
	}
	if len(fits) == 1 {
		return fits[0], keys[0]
	}
	return nil, ""
}

// callWords names the call a path is in, in words: the first call below a
// fold's iteration or a block that only holds others (blocks[0].attn.qkv →
// attention, block.ffn → feed-forward), with the usual short names spelled
// out; "" when the name is not a usual one, or for the entry's own.
func callWords(path string) string {
	if path == "" {
		return ""
	}
	parts := strings.Split(path, ".")
	i := 0
	for i < len(parts)-1 && (strings.HasSuffix(parts[i], "]") || holderCalls[parts[i]]) {
		i++
	}
	call := parts[i]
	if j := strings.IndexByte(call, '['); j >= 0 {
		call = call[:j]
	}
	return callNames[call]
}

// holderCalls are the usual names of a call that only holds others, as a
// decoder block holds its attention and its feed-forward.
var holderCalls = map[string]bool{"block": true, "layer": true}

var callNames = map[string]string{
	"attn": "attention", "attention": "attention", "self_attn": "attention", "self": "self-attention",
	"xattn": "cross-attention", "cross": "cross-attention",
	"ff": "feed-forward", "ffn": "feed-forward", "mlp": "MLP", "moe": "mixture of experts", "experts": "experts",
	"ln": "layer norm", "ln1": "first layer norm", "ln2": "second layer norm", "ln_f": "final layer norm",
	"tok_emb": "token embedding", "pos_emb": "position embedding", "emb": "embedding", "head": "head",
}

// sortedByBytes orders live buffers the largest first, keeping the
// recording's order among equals.
func sortedByBytes(bs []LiveBuffer) {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Bytes.Cmp(bs[j].Bytes) > 0 })
}
