// Package dominance proves which of a program's peak candidates (polynomials
// in its dimensions, each dimension an integer ≥ 1) dominate others, prunes
// the dominated ones, and finds exactly where along a dimension each of the
// rest holds the peak.
//
// Every "dominates" it reports carries a proof that holds at every integer
// point with all dimensions ≥ 1, and every "does not dominate" carries an
// integer point, checked exactly, where the other candidate is larger. When
// neither is found it says so (Undecided) rather than guess. Samples in
// floating point only ever propose which pairs to try; every decision is
// made in exact arithmetic.
package dominance
