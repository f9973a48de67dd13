package page

import (
	"memsym/doc"
	"memsym/poly"
)

// Percent writes share's part of peak in per cent, rounded half up to one
// decimal in exact arithmetic, as doc.Percent does: "87.5%", "<0.1%" for a
// share that rounds to 0.0 without being 0, "0%" for none, and "–" when
// peak is 0. The page's script writes the same.
func Percent(share, peak poly.Rat) string { return doc.Percent(share, peak) }
