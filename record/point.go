package record

import (
	"fmt"
	"strings"
)

// Point is an assignment of a program's dimensions, in the order of its
// header: B = 2, T = 16. It is the one type memsym has for a point, whether
// a recording's, a grid's, a check's or one a user asks about.
type Point []Dim

// Value returns the value of the dimension named name, and whether the
// point has one.
func (p Point) Value(name string) (int64, bool) {
	for _, d := range p {
		if d.Name == name {
			return d.Value, true
		}
	}
	return 0, false
}

// Names returns the dimensions' names, in order.
func (p Point) Names() []string {
	names := make([]string, len(p))
	for i, d := range p {
		names[i] = d.Name
	}
	return names
}

// Map returns the point as the map poly's evaluation takes.
func (p Point) Map() map[string]int64 {
	m := make(map[string]int64, len(p))
	for _, d := range p {
		m[d.Name] = d.Value
	}
	return m
}

// With returns a copy of p with the named dimension set to v; a name p does
// not have is appended.
func (p Point) With(name string, v int64) Point {
	out := append(Point(nil), p...)
	for i := range out {
		if out[i].Name == name {
			out[i].Value = v
			return out
		}
	}
	return append(out, Dim{Name: name, Value: v})
}

// String writes the point as the outputs do: "B = 16, T = 256".
func (p Point) String() string {
	var b strings.Builder
	for i, d := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %d", d.Name, d.Value)
	}
	return b.String()
}

// Key writes the point compactly, as names of recordings made at it do:
// "B=16,T=256".
func (p Point) Key() string {
	var b strings.Builder
	for i, d := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%d", d.Name, d.Value)
	}
	return b.String()
}

// Equal reports whether p and q assign the same values to the same
// dimensions in the same order.
func (p Point) Equal(q Point) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// CheckName accepts the names a dimension or a constant can have, a letter
// followed by letters, digits or _, and says what is wrong with any other;
// what names the kind of name ("dimension").
func CheckName(what, name string) error { return checkName(what, name) }

// ShapeString writes a shape as the outputs do: "[2, 16, 256]".
func ShapeString(shape []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, n)
	}
	b.WriteByte(']')
	return b.String()
}
