package reports

import "testing"

// TestPDFLacks checks the embedded fonts' character maps against
// characters they have and lack.
func TestPDFLacks(t *testing.T) {
	for _, r := range []rune{'a', 'Z', '0', 'é', 'ß', 'Б', 'в', 'Ω', '·', '−', '×', '∈', '²', '≥', '\u2009'} {
		if PDFLacks(r) {
			t.Errorf("PDFLacks(%q) = true: DejaVu has it", r)
		}
	}
	for _, r := range []rune{'注', '意', 'ध', 'ก', '😀', 0x10FFFF} {
		if !PDFLacks(r) {
			t.Errorf("PDFLacks(%q) = false: DejaVu lacks it", r)
		}
	}
	for i, m := range pdfFonts.maps {
		if len(m) == 0 {
			t.Errorf("font %d: no character map read", i)
		}
	}
}
