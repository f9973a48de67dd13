package reports

import _ "embed"

// The DejaVu fonts the PDF embeds, so that ·, ², ×, ∈, − and thin spaces
// print on any machine, and variables are set in italics (their license
// is fonts/LICENSE).
var (
	//go:embed fonts/DejaVuSans.ttf
	dejaVuSans []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	dejaVuSansBold []byte
	//go:embed fonts/DejaVuSansMono.ttf
	dejaVuSansMono []byte
	//go:embed fonts/DejaVuSans-Oblique.ttf
	dejaVuSansOblique []byte
)
