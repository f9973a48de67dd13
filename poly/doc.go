// Package poly holds the exact arithmetic of memsym: rationals (Rat) and
// polynomials over them in named dimensions (Poly), in which memsym states a
// program's memory needs, and their display, ASCII and LaTeX notations.
package poly
