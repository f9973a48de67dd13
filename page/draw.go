package page

import (
	"memsym/doc"
	"memsym/poly"
)

// Percent writes share's part of peak in per cent as doc.Percent does:
// "87.5%", "<0.1%" and ">99.9%" for a share that rounds to 0.0 or 100.0
// without being none or all, "0%", "100%", and "–" when peak is 0. The
// page's script writes the same.
func Percent(share, peak poly.Rat) string { return doc.Percent(share, peak) }
