package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"memsym/dominance"
	"memsym/poly"
	"memsym/record"
)

// The domain: where the model holds. Every dimension's values from 1 up,
// except a block count L modelled from the grid L ∈ {2, 3, 4}, whose first
// and last blocks stand apart (interp's fold): its model holds from L = 2,
// for at L = 1 the one block is both the first and the last. dominance
// proves and refutes for every dimension ≥ 1, so the model hands it its
// polynomials in L − 1 (each L replaced by L + 1), which range over
// L − 1 ≥ 1 exactly where L ≥ 2, and maps the points it answers with
// back. Nothing else changes: the polynomials the model states are in L.

// Domain returns each dimension's least value the model holds for, in the
// model's order: 1 for most, 2 for a block count whose last block stands
// apart.
func (m *Model) Domain() record.Point {
	p := make(record.Point, len(m.Vars))
	for i, v := range m.Vars {
		p[i] = record.Dim{Name: v, Value: m.Least(v)}
	}
	return p
}

// DomainString says where the model holds, as "every B, T ≥ 1 and L ≥ 2",
// or "every B, T ≥ 1".
func (m *Model) DomainString() string {
	if len(m.Vars) == 0 {
		return "every point"
	}
	return "every " + m.AtLeast(m.Vars)
}

// AtLeast writes the least values of the named dimensions, as "B, T ≥ 1"
// or "B ≥ 1 and L ≥ 2": the ranges a claim for every value of them holds
// on.
func (m *Model) AtLeast(names []string) string {
	var groups, run []string
	var lo int64
	flush := func() {
		if len(run) > 0 {
			groups = append(groups, fmt.Sprintf("%s ≥ %d", strings.Join(run, ", "), lo))
		}
		run = nil
	}
	for _, v := range names {
		if l := m.Least(v); len(run) > 0 && l != lo {
			flush()
		}
		run, lo = append(run, v), m.Least(v)
	}
	flush()
	return strings.Join(groups, " and ")
}

// InDomain returns an error for a point below the model's domain.
func (m *Model) InDomain(p record.Point) error {
	for _, d := range p {
		if lo := m.Least(d.Name); d.Value < lo && lo > 1 {
			return fmt.Errorf("%s = %d: the model holds for every %s ≥ %d, %s counting blocks whose first and last stand apart", d.Name, d.Value, d.Name, lo, d.Name)
		}
	}
	return nil
}

// offset returns by how much each shifted dimension's least value exceeds
// 1, or nil when none does.
func (m *Model) offset() map[string]int64 {
	var out map[string]int64
	for _, v := range m.Vars {
		if lo := m.Least(v); lo > 1 {
			if out == nil {
				out = map[string]int64{}
			}
			out[v] = lo - 1
		}
	}
	return out
}

// toUnit returns p over the unit domain: each shifted dimension x replaced
// by x + (least − 1).
func (m *Model) toUnit(p poly.Poly) poly.Poly {
	for v, by := range m.offset() {
		p = p.ShiftVar(v, poly.Int(by))
	}
	return p
}

// unitCands returns the candidates over the unit domain.
func (m *Model) unitCands(cands []dominance.Candidate) []dominance.Candidate {
	if m.offset() == nil {
		return cands
	}
	out := make([]dominance.Candidate, len(cands))
	for i, c := range cands {
		out[i] = dominance.Candidate{Poly: m.toUnit(c.Poly), Op: c.Op}
	}
	return out
}

// fromUnitPoint maps a point of the unit domain back, in place.
func (m *Model) fromUnitPoint(at map[string]int64) map[string]int64 {
	for v, by := range m.offset() {
		if x, ok := at[v]; ok {
			at[v] = x + by
		}
	}
	return at
}

// toUnitFixed maps values given to dimensions to the unit domain, refusing
// one below the domain.
func (m *Model) toUnitFixed(fixed map[string]int64) (map[string]int64, error) {
	off := m.offset()
	if off == nil {
		return fixed, nil
	}
	out := maps.Clone(fixed)
	for v, by := range off {
		if x, ok := out[v]; ok {
			if err := m.InDomain(record.Point{{Name: v, Value: x}}); err != nil {
				return nil, err
			}
			out[v] = x - by
		}
	}
	return out, nil
}

// pointOf returns a point's values in the order of their names.
func pointOf(at map[string]int64) record.Point {
	var p record.Point
	for _, v := range slices.Sorted(maps.Keys(at)) {
		p = append(p, record.Dim{Name: v, Value: at[v]})
	}
	return p
}

// prune is dominance.Prune over the model's domain.
func (m *Model) prune(cands []dominance.Candidate) *dominance.Frontier {
	f := dominance.Prune(m.unitCands(cands))
	f.MoveWitnesses(m.offset())
	return f
}

// alongAll is dominance.AlongAll over the model's domain: the segments
// start at dim's least value.
func (m *Model) alongAll(cands []dominance.Candidate, front *dominance.Frontier, dim string, fixed map[string]int64) (*Crossovers, error) {
	unit, err := m.toUnitFixed(fixed)
	if err != nil {
		return nil, err
	}
	c, err := dominance.AlongAll(m.unitCands(cands), front, dim, unit)
	return m.fromUnitCrossovers(c, fixed), err
}

// alongKept is dominance.Along over the model's domain.
func (m *Model) alongKept(cands []dominance.Candidate, kept []int, dim string, fixed map[string]int64) (*Crossovers, error) {
	unit, err := m.toUnitFixed(fixed)
	if err != nil {
		return nil, err
	}
	c, err := dominance.Along(m.unitCands(cands), kept, dim, unit)
	return m.fromUnitCrossovers(c, fixed), err
}

// fromUnitCrossovers maps crossovers along a dimension of the unit domain
// back: their segments' ends, and the values given.
func (m *Model) fromUnitCrossovers(c *Crossovers, fixed map[string]int64) *Crossovers {
	if c == nil || m.offset() == nil {
		return c
	}
	by := m.offset()[c.Dim]
	c.Fixed = fixed
	for i := range c.Segments {
		s := &c.Segments[i]
		s.From += by
		if s.To != 0 {
			s.To += by
		}
	}
	return c
}

// dominates is dominance.Dominates over the model's domain.
func (m *Model) dominates(p, q poly.Poly) dominance.Answer {
	a := dominance.Dominates(m.toUnit(p), m.toUnit(q))
	if a.Witness != nil && m.offset() != nil {
		m.fromUnitPoint(a.Witness)
		a.Reason = "refuted at " + pointOf(a.Witness).String() // the reason named the point over the unit domain
	}
	return a
}
