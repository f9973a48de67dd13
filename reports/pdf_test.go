package reports

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"memsym/explain"
	"memsym/explain/explaintest"
)

// Two renders of the same document must be byte-identical, and a different
// document must give a different file.
func TestPDFReproducible(t *testing.T) {
	a, err := pdfBytes(chapter())
	if err != nil {
		t.Fatal(err)
	}
	b, err := pdfBytes(chapter())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of the same chapter differ")
	}
	in := explaintest.GPTCourse()
	in.Point = nil
	c, err := pdfBytes(explain.Chapter(in))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Fatal("two different chapters render the same")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", a[:8])
	}
}

// plainSpaces turns every kind of space into a plain one and superscript
// digits into digits, as pdftotext gives a PDF's text.
func plainSpaces(s string) string {
	return strings.Map(func(r rune) rune {
		if d, ok := superscripts[r]; ok {
			return d
		}
		if unicode.IsSpace(r) || r == '\u2009' || r == '\u202f' {
			return ' '
		}
		return r
	}, s)
}

// The PDF's text must hold the chapter's numbers and formulas, and its
// fonts must be embedded.
func TestPDFText(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext is not installed (poppler-utils); the PDF's text is not checked")
	}
	doc := chapter()
	dir, _ := render(t, "pdf", doc)
	path := filepath.Join(dir, "chapter13.pdf")
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := plainSpaces(string(out))
	for _, want := range []string{
		"Memory: what GPT.apply needs",
		"149 504", "903 424", "903 168", "1 052 928", "23 552", "147 456", "131 072",
		"0.90 MB", "150 kB",
		"Linear.apply/%5", "blocks[0].ff.up", "blocks ×2",
		"B ∈ {16, 32, 48}",
		"from T = 150 the attention's probabilities, 144 · B · T2 + 6144 · B · T + 8 · T2, hold the peak.",
		"48 · B · T2 + 12288 · B · T + 8 · T2",
		"27648 · B · T + 8 · T2",
		"8 · B · T + 3072 · T + 85745664",
		"peak, operation 19", "T = 150",
		"page 3",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q", want)
		}
	}
	if _, err := exec.LookPath("pdffonts"); err != nil {
		return
	}
	fonts, err := exec.Command("pdffonts", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(fonts)), "\n")
	if len(lines) < 3 {
		t.Fatalf("pdffonts lists no font:\n%s", fonts)
	}
	for _, l := range lines[2:] {
		// name, type, encoding, then emb, sub, uni, object and generation.
		if f := strings.Fields(l); !strings.Contains(f[0], "dejavu") || len(f) < 6 || f[len(f)-5] != "yes" {
			t.Errorf("a font is not DejaVu embedded: %s", l)
		}
	}
}

// Formulas are drawn with their exponents raised: a piece "2" above the
// baseline after "T".
func TestFormulaPieces(t *testing.T) {
	base := font{sans, "", 10}
	ps := formulaPieces("T²", base)
	if len(ps) != 2 || ps[0].text != "T" || ps[0].rise != 0 || ps[1].text != "2" || ps[1].rise <= 0 || ps[1].font.size >= base.size {
		t.Errorf("formulaPieces(T²) = %+v", ps)
	}
	ps = formulaPieces("B¹²T", base)
	if len(ps) != 3 || ps[1].text != "12" || ps[2].text != "T" || ps[2].rise != 0 {
		t.Errorf("formulaPieces(B¹²T) = %+v", ps)
	}
}
