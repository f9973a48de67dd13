// Package poly holds the exact arithmetic of memsym: rationals (Rat) and
// polynomials over them in named dimensions (Poly), in which memsym states a
// program's memory needs, and their display, ASCII and LaTeX notations.
// Beside them are the int64 operations that report overflow (AddInt64,
// SubInt64, MulInt64, HornerInt64), on which the fast paths rest;
// DenseShift, a flat int64 form of the shift by one for comparing many
// polynomials; and IntPoly, a polynomial in one variable with integer
// coefficients, in which signs along one dimension are decided.
package poly
