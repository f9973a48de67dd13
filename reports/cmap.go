package reports

import (
	"encoding/binary"
	"sort"
	"sync"
)

// A font's character map (its TrueType cmap table): which characters it
// has glyphs for, so that memsym can say which characters of a name its
// PDF cannot show. Formats 4 (the Basic Multilingual Plane, in segments)
// and 12 (all of Unicode, in groups) are read; DejaVu has both.

// charRange is characters From to To, both included, that a font has.
type charRange struct{ From, To rune }

// charMap is a font's characters, in ascending ranges.
type charMap []charRange

// has reports whether r is among m's characters.
func (m charMap) has(r rune) bool {
	i := sort.Search(len(m), func(i int) bool { return m[i].To >= r })
	return i < len(m) && m[i].From <= r
}

// readCharMap reads the characters of the TrueType font in data that map
// to a glyph other than the missing one; nil when it cannot read them.
func readCharMap(data []byte) charMap {
	u16 := func(at int) int {
		if at < 0 || at+2 > len(data) {
			return -1
		}
		return int(binary.BigEndian.Uint16(data[at:]))
	}
	u32 := func(at int) int {
		if at < 0 || at+4 > len(data) {
			return -1
		}
		return int(binary.BigEndian.Uint32(data[at:]))
	}
	cmap := -1
	for i, n := 0, u16(4); i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(data) {
			return nil
		}
		if string(data[rec:rec+4]) == "cmap" {
			cmap = u32(rec + 8)
		}
	}
	if cmap < 0 {
		return nil
	}
	var f4, f12 int = -1, -1
	for i, n := 0, u16(cmap+2); i < n; i++ {
		rec := cmap + 4 + 8*i
		platform, encoding, off := u16(rec), u16(rec+2), u32(rec+4)
		if off < 0 {
			return nil
		}
		switch at := cmap + off; {
		case u16(at) == 12 && (platform == 3 && encoding == 10 || platform == 0):
			f12 = at
		case u16(at) == 4 && (platform == 3 && encoding == 1 || platform == 0):
			f4 = at
		}
	}
	var m charMap
	switch {
	case f12 >= 0:
		for i, n := 0, u32(f12+12); i < n; i++ {
			g := f12 + 16 + 12*i
			from, to, glyph := u32(g), u32(g+4), u32(g+8)
			if from < 0 || to < 0 || glyph < 0 {
				return nil
			}
			if glyph == 0 {
				from++ // the first maps to the missing glyph
			}
			if from <= to {
				m = append(m, charRange{rune(from), rune(to)})
			}
		}
	case f4 >= 0:
		segs := u16(f4+6) / 2
		ends, starts := f4+14, f4+16+2*segs
		for i := 0; i < segs; i++ {
			from, to := u16(starts+2*i), u16(ends+2*i)
			if from < 0 || to < 0 {
				return nil
			}
			if from == 0xFFFF {
				continue // the last segment, which maps nothing
			}
			m = append(m, charRange{rune(from), rune(to)})
		}
	default:
		return nil
	}
	sort.Slice(m, func(i, j int) bool { return m[i].From < m[j].From })
	return m
}

var pdfFonts struct {
	once sync.Once
	maps []charMap
}

// pdfHas reports whether every font the PDF sets text in has r.
func pdfHas(r rune) bool {
	pdfFonts.once.Do(func() {
		for _, data := range [][]byte{dejaVuSans, dejaVuSansBold, dejaVuSansMono, dejaVuSansOblique} {
			pdfFonts.maps = append(pdfFonts.maps, readCharMap(data))
		}
	})
	for _, m := range pdfFonts.maps {
		if m != nil && !m.has(r) {
			return false
		}
	}
	return true
}
