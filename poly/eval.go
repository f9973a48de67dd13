package poly

import "fmt"

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
	// pow[j][i] is variable j to the power i, for i up to its degree.
	pow := make([][]Rat, len(p.vars))
	for j, name := range p.vars {
		d := p.column(j)
		if d == 0 {
			continue
		}
		x, ok := value(name)
		if !ok {
			return Rat{}, fmt.Errorf("no value for %s", name)
		}
		pow[j] = make([]Rat, d+1)
		pow[j][0] = Int(1)
		for i := 1; i <= d; i++ {
			pow[j][i] = pow[j][i-1].Mul(x)
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
	return total, nil
}
