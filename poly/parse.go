package poly

import (
	"fmt"
	"strconv"
	"unicode"
)

// ParseError is a syntax error in Parse's input, at column Col (counted in
// characters from 1).
type ParseError struct {
	Col int
	Msg string // `expected ... (found "...")`
}

func (e *ParseError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// maxExponent bounds the exponents Parse accepts, so that a typing slip
// cannot ask for an astronomically large polynomial.
const maxExponent = 1 << 16

// Parse reads a polynomial written in ASCII notation ("48*B*T^2 - 3/2*T +
// 1.5") or in display notation ("48 · B · T² − 3/2 · T"). Spaces are
// ignored; a term is an optional sign, then numbers (integers, fractions
// a/b, decimals) and variables (name or name^k) joined by '*', '·' or '×'.
// A repeated variable multiplies: T*T is T^2. The result's variables are
// in order of first appearance.
func Parse(s string) (Poly, error) {
	ps := parser{rs: []rune(s)}
	var terms []Term
	ps.space()
	neg := false
	switch ps.peek() {
	case '+':
		ps.pos++
	case '-', '−':
		ps.pos++
		neg = true
	}
	for {
		t, err := ps.term()
		if err != nil {
			return Poly{}, err
		}
		if neg {
			t.Coef = t.Coef.Neg()
		}
		terms = append(terms, t)
		ps.space()
		if ps.pos == len(ps.rs) {
			break
		}
		switch ps.peek() {
		case '+':
			neg = false
		case '-', '−':
			neg = true
		default:
			return Poly{}, ps.errorf("expected '*', '+', '-' or the end")
		}
		ps.pos++
	}
	for i := range terms {
		for len(terms[i].Exp) < len(ps.vars) {
			terms[i].Exp = append(terms[i].Exp, 0)
		}
	}
	return New(ps.vars, terms), nil
}

// parser reads Parse's input one character at a time.
type parser struct {
	rs   []rune
	pos  int
	vars []string // in order of first appearance
}

func (ps *parser) peek() rune {
	if ps.pos < len(ps.rs) {
		return ps.rs[ps.pos]
	}
	return -1
}

func (ps *parser) space() {
	for ps.pos < len(ps.rs) && unicode.IsSpace(ps.rs[ps.pos]) {
		ps.pos++
	}
}

// term reads one term after its sign.
func (ps *parser) term() (Term, error) {
	t := Term{Coef: Int(1)}
	for {
		if err := ps.factor(&t); err != nil {
			return Term{}, err
		}
		ps.space()
		switch ps.peek() {
		case '*', '·', '×', '⋅':
			ps.pos++
		default:
			return t, nil
		}
	}
}

// factor reads a number or a variable with its exponent and multiplies t
// by it.
func (ps *parser) factor(t *Term) error {
	ps.space()
	r := ps.peek()
	switch {
	case isDigit(r):
		c, err := ps.number()
		if err != nil {
			return err
		}
		t.Coef = t.Coef.Mul(c)
		return nil
	case isNameStart(r):
		name := ps.name()
		e, err := ps.exponent()
		if err != nil {
			return err
		}
		j := ps.variable(name)
		for len(t.Exp) <= j {
			t.Exp = append(t.Exp, 0)
		}
		t.Exp[j] += e
		return nil
	case r == '(' || r == ')':
		return ps.errorf("expected a number or a variable, as parentheses are not supported")
	}
	return ps.errorf("expected a number or a variable")
}

// number reads an integer, a fraction a/b or a decimal.
func (ps *parser) number() (Rat, error) {
	start := ps.pos
	ps.digits()
	switch ps.peek() {
	case '.':
		ps.pos++
		if !isDigit(ps.peek()) {
			return Rat{}, ps.errorf("expected a digit after the decimal point")
		}
		ps.digits()
	case '/':
		ps.pos++
		if !isDigit(ps.peek()) {
			return Rat{}, ps.errorf("expected a denominator")
		}
		den := ps.pos
		ps.digits()
		if allZeros(ps.rs[den:ps.pos]) {
			ps.pos = den
			return Rat{}, ps.errorf("expected a nonzero denominator")
		}
	}
	if ps.pos-start <= 18 && allDigits(ps.rs[start:ps.pos]) {
		return Int(digitsValue(ps.rs[start:ps.pos])), nil // fits: at most 18 digits
	}
	c, err := ParseRat(string(ps.rs[start:ps.pos]))
	if err != nil { // not reached: the characters were checked above
		ps.pos = start
		return Rat{}, ps.errorf("expected a number")
	}
	return c, nil
}

func (ps *parser) digits() {
	for isDigit(ps.peek()) {
		ps.pos++
	}
}

// name reads a variable's name.
func (ps *parser) name() []rune {
	start := ps.pos
	for ps.pos < len(ps.rs) && isNamePart(ps.rs[ps.pos]) {
		ps.pos++
	}
	return ps.rs[start:ps.pos]
}

// exponent reads what follows a variable: "^k", superscript digits, or
// nothing (exponent 1).
func (ps *parser) exponent() (int, error) {
	ps.space()
	if ps.peek() == '^' {
		ps.pos++
		ps.space()
		start := ps.pos
		ps.digits()
		if start == ps.pos {
			return 0, ps.errorf("expected an exponent, a whole number")
		}
		return ps.bounded(start, string(ps.rs[start:ps.pos]))
	}
	start := ps.pos
	var ds []byte
	for ; ps.pos < len(ps.rs); ps.pos++ {
		d := superDigit(ps.rs[ps.pos])
		if d < 0 {
			break
		}
		ds = append(ds, byte('0'+d))
	}
	if len(ds) == 0 {
		return 1, nil
	}
	return ps.bounded(start, string(ds))
}

// bounded returns the exponent written as the digits ds from start.
func (ps *parser) bounded(start int, ds string) (int, error) {
	e, err := strconv.Atoi(ds)
	if err != nil || e > maxExponent {
		ps.pos = start
		return 0, ps.errorf(fmt.Sprintf("expected an exponent of at most %d", maxExponent))
	}
	return e, nil
}

// variable returns the index of name among the variables, adding it.
func (ps *parser) variable(name []rune) int {
	for j, v := range ps.vars {
		if sameName(v, name) {
			return j
		}
	}
	ps.vars = append(ps.vars, string(name))
	return len(ps.vars) - 1
}

func sameName(s string, rs []rune) bool {
	i := 0
	for _, r := range s {
		if i == len(rs) || rs[i] != r {
			return false
		}
		i++
	}
	return i == len(rs)
}

// errorf returns a ParseError at the current position, quoting what is
// found there.
func (ps *parser) errorf(expected string) error {
	return &ParseError{Col: ps.pos + 1, Msg: expected + " (found " + ps.found() + ")"}
}

// found describes the input at the current position: the whole name or
// number there, one other character, or the end.
func (ps *parser) found() string {
	if ps.pos >= len(ps.rs) {
		return "the end"
	}
	end := ps.pos + 1
	switch r := ps.rs[ps.pos]; {
	case isDigit(r):
		for end < len(ps.rs) && isDigit(ps.rs[end]) {
			end++
		}
	case isNameStart(r):
		for end < len(ps.rs) && isNamePart(ps.rs[end]) {
			end++
		}
	}
	return strconv.Quote(string(ps.rs[ps.pos:end]))
}

func isDigit(r rune) bool     { return '0' <= r && r <= '9' }
func isNameStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isNamePart(r rune) bool  { return isNameStart(r) || isDigit(r) }

// superDigit returns the value of a superscript digit, or -1.
func superDigit(r rune) int {
	for d, s := range superscripts {
		if r == s {
			return d
		}
	}
	return -1
}

func allDigits(rs []rune) bool {
	for _, r := range rs {
		if !isDigit(r) {
			return false
		}
	}
	return true
}

func digitsValue(rs []rune) int64 {
	var v int64
	for _, r := range rs {
		v = 10*v + int64(r-'0')
	}
	return v
}

func allZeros(rs []rune) bool {
	for _, r := range rs {
		if r != '0' {
			return false
		}
	}
	return true
}
