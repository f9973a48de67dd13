package explain

import (
	"fmt"

	"memsym/doc"
	"memsym/poly"
	"memsym/record"
)

// inlines turns the pieces of a sentence into inline runs: a string is
// Text, a poly.Rat, an int or an int64 a Number, a poly.Poly a Formula,
// an Inline stays itself and a []Inline is spliced in. Adjacent texts
// merge.
func inlines(parts ...any) []doc.Inline {
	var out []doc.Inline
	add := func(in doc.Inline) {
		if t, ok := in.(doc.Text); ok {
			if t == "" {
				return
			}
			if n := len(out); n > 0 {
				if prev, ok := out[n-1].(doc.Text); ok {
					out[n-1] = prev + t
					return
				}
			}
		}
		out = append(out, in)
	}
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			add(doc.Text(p))
		case poly.Rat:
			add(doc.Number{Value: p})
		case int:
			add(doc.Number{Value: poly.Int(int64(p))})
		case int64:
			add(doc.Number{Value: poly.Int(p)})
		case poly.Poly:
			add(doc.Formula{Poly: p})
		case doc.Inline:
			add(p)
		case []doc.Inline:
			for _, in := range p {
				add(in)
			}
		case doc.Cell:
			for _, in := range p {
				add(in)
			}
		default:
			add(doc.Text(fmt.Sprint(p)))
		}
	}
	return out
}

// para makes a paragraph of the given pieces (see inlines).
func para(parts ...any) *doc.Paragraph { return &doc.Paragraph{Inlines: inlines(parts...)} }

// cell makes a table cell of the given pieces (see inlines).
func cell(parts ...any) doc.Cell { return doc.Cell(inlines(parts...)) }

// approx is n bytes in binary units ("146 KiB"), "" below one KiB.
func approx(n poly.Rat) string { return doc.IEC.Approx(n) }

// bytesWords writes n bytes with its size in binary units beside it when
// it is at least a KiB: "1 052 928 bytes (1.00 MiB)", "512 bytes".
func bytesWords(n poly.Rat) []doc.Inline {
	out := countBytes(n)
	if a := approx(n); a != "" {
		out = inlines(out, " ("+a+")")
	}
	return out
}

// plural writes n and the noun that goes with it as inlines: a count of at
// most twelve in words, as prose writes small counts (doc.Spell: "four
// distinct polynomials", "one operation"), a larger one in digits grouped
// as every number of the chapter is ("1 000 operations").
func plural(n int, one, many string) []doc.Inline {
	noun := many
	if n == 1 {
		noun = one
	}
	if n >= 1 && n <= 12 {
		return inlines(doc.Spell(n) + " " + noun)
	}
	return inlines(n, " "+noun)
}

// countBytes writes n bytes, "1 byte" for one.
func countBytes(n poly.Rat) []doc.Inline {
	if n.Equal(poly.Int(1)) {
		return inlines(n, " byte")
	}
	return inlines(n, " bytes")
}

// bytesAside is bytesWords for inside parentheses: "149 504 bytes or 146
// KiB", "512 bytes"; a negative count (a polynomial's value off the
// program's domain) has no binary units. Beside a count ref said next to
// it, its binary units take as many digits as tell the two apart (831 648
// bytes is 812.16 KiB beside 831 056).
func bytesAside(n poly.Rat, ref ...poly.Rat) []doc.Inline {
	out := countBytes(n)
	a := approx(n)
	if len(ref) > 0 && ref[0].Sign() > 0 {
		a = doc.IEC.ApproxBeside(n, ref[0])
	}
	if a != "" && n.Sign() > 0 {
		out = inlines(out, " or "+a)
	}
	return out
}

// point writes a point as mathematics: B = 2, T = 16.
func point(p record.Point) doc.Math {
	var m doc.Math
	for i, d := range p {
		if i > 0 {
			m = append(m, doc.S(","))
		}
		m = append(m, doc.V(d.Name), doc.S("="), doc.NInt(d.Value))
	}
	return m
}

// equals writes name = x as mathematics.
func equals(name string, x int64) doc.Math {
	return doc.Math{doc.V(name), doc.S("="), doc.NInt(x)}
}

// atLeast writes "B, T ≥ 1" as mathematics, each dimension from its least
// value (1 unless least says otherwise): "B ≥ 1, L ≥ 2".
func atLeast(least map[string]int64, names []string) doc.Math {
	var m doc.Math
	for i, n := range names {
		if i > 0 {
			m = append(m, doc.S(","))
		}
		m = append(m, doc.V(n))
		lo := max(least[n], 1)
		if i == len(names)-1 || max(least[names[i+1]], 1) != lo {
			m = append(m, doc.S("≥"), doc.NInt(lo))
		}
	}
	return m
}

// variables writes names as mathematics, joined as a reader does: B and T.
func variables(names []string) []doc.Inline {
	var items []any
	for _, n := range names {
		items = append(items, doc.Math{doc.V(n)})
	}
	return inlines(doc.Joined(", ", items...)...)
}

// constants writes constants as given, as mathematics: D = 64, H = 2.
func constants(cs []NameValue) []doc.Inline {
	var out []any
	for i, c := range cs {
		if i > 0 {
			out = append(out, ", ")
		}
		if v, err := poly.ParseRat(c.Value); err == nil {
			out = append(out, doc.Math{doc.V(c.Name), doc.S("="), doc.N(v)})
		} else {
			// A value no exact number reads (1e400) is written as given.
			out = append(out, doc.Math{doc.V(c.Name)}, " = "+c.Value)
		}
	}
	return inlines(out...)
}

// callName writes a call's path for a reader: the entry's own operations
// for "", and the path with its fold's iterations ("blocks ×2", "blocks
// ×1" for a fold of one iteration, as the calls' figure titles its box).
func callName(entry string, c CallRow) []doc.Inline {
	if c.Path == "" {
		return inlines(entryName(entry), "'s own")
	}
	if c.Fold {
		return inlines(doc.Code(c.Path), fmt.Sprintf(" ×%d", c.Iterations))
	}
	return inlines(doc.Code(c.Path))
}

// entryName writes the entry point's name as code, or, for a recording
// that names none (the format allows it), "the program" in words: an
// empty code span would show as nothing, or as two backquotes.
func entryName(entry string) doc.Inline {
	if entry == "" {
		return doc.Text("the program")
	}
	return doc.Code(entry)
}

// entryText is entryName as plain text, for a title.
func entryText(entry string) string {
	if entry == "" {
		return "the program"
	}
	return entry
}

// madeBy writes the call that made a buffer: its path, or the entry.
func madeBy(entry, path string) []doc.Inline {
	if path == "" {
		return inlines(entryName(entry))
	}
	return inlines(doc.Code(path))
}

// bufferWords names a candidate's largest live buffers: "the attention's
// `probabilities` (B · H · T² reals)", "`up xW` and `up` in
// `blocks[0].ff.up` (B · T · 4D reals each)".
func bufferWords(n *BufferName) []doc.Inline {
	var codes []any
	for _, name := range n.Names {
		codes = append(codes, doc.Code(name))
	}
	names := doc.Joined(", ", codes...)
	var out []any
	switch {
	case n.Call != "":
		out = append(out, "the "+possessive(n.Call)+" ")
		out = append(out, names...)
	case n.Path != "":
		out = append(out, names...)
		out = append(out, " in ", doc.Code(n.Path))
	default:
		out = append(out, names...)
	}
	each := ""
	switch {
	case n.Count > len(n.Names):
		each = ", " + doc.Spell(n.Count) + " buffers of"
	case n.Count > 1:
		each = " each"
	}
	if n.Size != nil {
		if each == " each" || each == "" {
			out = append(out, " (", n.Size, " "+n.Kind+each+")")
		} else {
			out = append(out, " (", each[2:], " ", n.Size, " "+n.Kind+" each)")
		}
	} else {
		if each == " each" || each == "" {
			out = append(out, " (", n.Bytes, " bytes"+each+")")
		} else {
			out = append(out, " (", each[2:], " ", n.Bytes, " bytes each)")
		}
	}
	return inlines(out...)
}

// candidateWords names candidate i for a legend: "candidate 2".
func candidateWords(c CandidateRow, i int) string { return fmt.Sprintf("candidate %d", i+1) }

// pick returns yes when cond holds, else no.
func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// inOrder returns p over the dimensions' order vars, so that every formula
// of a chapter names B before T however it was made; p is returned as it
// is when vars does not name each of its variables exactly once.
func inOrder(p poly.Poly, vars []string) poly.Poly {
	seen := map[string]bool{}
	for _, v := range vars {
		if seen[v] {
			return p
		}
		seen[v] = true
	}
	for _, v := range p.Used() {
		if !seen[v] {
			return p
		}
	}
	return poly.WithVars(p, vars)
}

// possessive writes the possessive of a call's name (callNames):
// "feed-forward's", and of the one plural among them, "experts'".
func possessive(noun string) string {
	if noun == "experts" {
		return noun + "'"
	}
	return noun + "'s"
}
