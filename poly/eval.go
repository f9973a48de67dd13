package poly

import (
	"fmt"
	"slices"
)

// Eval returns p's value with each variable set to at[name]. Only the
// variables p uses need a value; the error names the first one, in Vars
// order, that has none.
func (p Poly) Eval(at map[string]Rat) (Rat, error) {
	return p.eval(func(name string) (Rat, bool) {
		x, ok := at[name]
		return x, ok
	})
}

// EvalInt is Eval at integer values, such as a recording's dimensions.
func (p Poly) EvalInt(at map[string]int64) (Rat, error) {
	return p.eval(func(name string) (Rat, bool) {
		x, ok := at[name]
		return Int(x), ok
	})
}

func (p Poly) eval(value func(string) (Rat, bool)) (Rat, error) {
	if p.IsZero() {
		return Rat{}, nil
	}
	xs := make([]Rat, len(p.vars))
	for j, name := range p.vars {
		if p.column(j) == 0 {
			continue
		}
		x, ok := value(name)
		if !ok {
			return Rat{}, fmt.Errorf("no value for %s", name)
		}
		xs[j] = x
	}
	return p.evalRats(xs), nil
}

// evalRats returns p's value with variable j at xs[j].
func (p Poly) evalRats(xs []Rat) Rat {
	// pow[j][i] is variable j to the power i, for i up to its degree.
	pow := make([][]Rat, len(p.vars))
	for j := range p.vars {
		d := p.column(j)
		if d == 0 {
			continue
		}
		pow[j] = make([]Rat, d+1)
		pow[j][0] = Int(1)
		for i := 1; i <= d; i++ {
			pow[j][i] = pow[j][i-1].Mul(xs[j])
		}
	}
	var total Rat
	for i, c := range p.coefs {
		t := c
		for j, e := range p.row(i) {
			if e != 0 {
				t = t.Mul(pow[j][e])
			}
		}
		total = total.Add(t)
	}
	return total
}

// EvalInts returns p's value with each variable at the integer at[j], j its
// position in Vars. It panics unless len(at) == len(Vars()), a programming
// error. It works in int64 while every step fits, exactly either way.
func (p Poly) EvalInts(at []int64) Rat {
	if len(at) != len(p.vars) {
		panic(fmt.Sprintf("poly: EvalInts with %d values for %d variables", len(at), len(p.vars)))
	}
	if v, ok := p.evalInt64(at); ok {
		return Int(v)
	}
	xs := make([]Rat, len(at))
	for j, x := range at {
		xs[j] = Int(x)
	}
	return p.evalRats(xs)
}

// evalInt64 is EvalInts in int64, and false when a coefficient is not an
// int64 or a step overflows.
func (p Poly) evalInt64(at []int64) (int64, bool) {
	var total int64
	for i, c := range p.coefs {
		t, ok := c.Int64()
		if !ok {
			return 0, false
		}
		for j, e := range p.row(i) {
			for ; e > 0; e-- {
				if t, ok = MulInt64(t, at[j]); !ok {
					return 0, false
				}
			}
		}
		if total, ok = AddInt64(total, t); !ok {
			return 0, false
		}
	}
	return total, true
}

// Subst returns p with the variable name set to x: a polynomial in p's
// other variables (name is dropped from its Vars); p itself when p has no
// variable name.
func (p Poly) Subst(name string, x Rat) Poly {
	j := slices.Index(p.vars, name)
	if j < 0 {
		return p
	}
	n := len(p.vars)
	rest := slices.Delete(slices.Clone(p.vars), j, j+1)
	pow := make([]Rat, p.column(j)+1)
	pow[0] = Int(1)
	for i := 1; i < len(pow); i++ {
		pow[i] = pow[i-1].Mul(x)
	}
	coefs := make([]Rat, len(p.coefs))
	exps := make([]int, 0, len(p.coefs)*(n-1))
	for i, c := range p.coefs {
		row := p.row(i)
		coefs[i] = c.Mul(pow[row[j]])
		exps = append(exps, row[:j]...)
		exps = append(exps, row[j+1:]...)
	}
	return canonical(rest, coefs, exps)
}
