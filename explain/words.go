package explain

import (
	"fmt"
	"strings"

	"memsym/poly"
)

// inlines turns the pieces of a sentence into inline runs: a string is
// Text, a poly.Rat a Number, a poly.Poly a Formula, an int a Number, an
// Inline stays itself and a []Inline is spliced in. Adjacent texts merge.
func inlines(parts ...any) []Inline {
	var out []Inline
	add := func(in Inline) {
		if t, ok := in.(Text); ok {
			if t == "" {
				return
			}
			if n := len(out); n > 0 {
				if prev, ok := out[n-1].(Text); ok {
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
			add(Text(p))
		case poly.Rat:
			add(Number{Value: p})
		case int:
			add(Number{Value: poly.Int(int64(p))})
		case int64:
			add(Number{Value: poly.Int(p)})
		case poly.Poly:
			add(Formula{Poly: p})
		case Inline:
			add(p)
		case []Inline:
			for _, in := range p {
				add(in)
			}
		default:
			add(Text(fmt.Sprint(p)))
		}
	}
	return out
}

// para makes a paragraph of the given pieces (see inlines).
func para(parts ...any) *Paragraph { return &Paragraph{Inlines: inlines(parts...)} }

// cell makes a table cell of the given pieces (see inlines).
func cell(parts ...any) Cell { return Cell(inlines(parts...)) }

// human is n bytes in decimal units ("3.2 GB").
func human(n poly.Rat) Number { return Number{Value: n, Human: true} }

// assignment writes dimensions' values: "B = 2, T = 16".
func assignment(at []NameInt) []Inline {
	var parts []any
	for i, a := range at {
		if i > 0 {
			parts = append(parts, ", ")
		}
		parts = append(parts, a.Name+" = ", a.Value)
	}
	return inlines(parts...)
}

// constants writes constants as given: "D = 64, H = 2, L = 2".
func constants(cs []NameValue) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " = " + c.Value
	}
	return strings.Join(parts, ", ")
}

// andList joins words as a reader does: "B", "B and T", "B, T and H".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// count writes a small count as a word ("four") and a larger one in digits.
func count(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

// capital returns s with its first letter in upper case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// callName writes a call's path for a reader: the entry's own name for "",
// and the path with its fold's iterations ("blocks ×2").
func callName(entry string, c CallRow) []Inline {
	if c.Path == "" {
		return inlines(Code(entry), ", its own")
	}
	if c.Iterations > 1 {
		return inlines(Code(c.Path), fmt.Sprintf(" ×%d", c.Iterations))
	}
	return inlines(Code(c.Path))
}

// madeBy writes the call that made a buffer: its path, or the entry.
func madeBy(entry, path string) []Inline {
	if path == "" {
		return inlines(Code(entry))
	}
	return inlines(Code(path))
}

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
