package doc

import "unicode"

// Columns returns how many columns of a terminal s takes: two for each
// wide character (the ideographs, kana and hangul of Chinese, Japanese and
// Korean names, fullwidth forms, most emoji), none for a combining mark or
// a zero-width character, one for any other. Tables of names taken from
// recordings line up by it, where a count of characters would put every
// figure after a Chinese name two columns to the right per character.
func Columns(s string) int {
	n, last := 0, 0
	for _, r := range s {
		w := runeColumns(r)
		if r == 0xfe0f && last == 1 {
			w = 1 // emoji presentation: the narrow symbol before it (❤) shows wide
		}
		n += w
		if w > 0 {
			last = w
		}
	}
	return n
}

func runeColumns(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me), r == 0x200b, r == 0x200c, r == 0x200d, r == 0x2060, r == 0xfeff,
		r >= 0xfe00 && r <= 0xfe0f: // variation selectors
		return 0
	case wide(r):
		return 2
	}
	return 1
}

// wideRanges are the blocks of wide and fullwidth characters (Unicode's
// East Asian Width W and F), by their first and last code points.
var wideRanges = [][2]rune{
	{0x1100, 0x115f},   // hangul jamo, leading consonants
	{0x231a, 0x231b},   // watch, hourglass
	{0x2e80, 0x303e},   // CJK radicals, Kangxi radicals, CJK symbols and punctuation
	{0x3041, 0x33ff},   // hiragana, katakana, bopomofo, hangul jamo, kanbun, CJK strokes, enclosed and compatibility
	{0x3400, 0x4dbf},   // CJK extension A
	{0x4e00, 0x9fff},   // CJK unified ideographs
	{0xa000, 0xa4cf},   // Yi
	{0xa960, 0xa97f},   // hangul jamo extended A
	{0xac00, 0xd7a3},   // hangul syllables
	{0xf900, 0xfaff},   // CJK compatibility ideographs
	{0xfe10, 0xfe19},   // vertical forms
	{0xfe30, 0xfe6f},   // CJK compatibility forms, small forms
	{0xff00, 0xff60},   // fullwidth forms
	{0xffe0, 0xffe6},   // fullwidth signs
	{0x16fe0, 0x18cff}, // ideographic symbols, Tangut
	{0x1b000, 0x1b2ff}, // kana supplement and extended, Nushu
	{0x1f300, 0x1f64f}, // pictographs, emoticons
	{0x1f680, 0x1f6ff}, // transport and map symbols
	{0x1f900, 0x1f9ff}, // supplemental symbols and pictographs
	{0x20000, 0x3fffd}, // CJK extensions B to H, compatibility supplement
}

func wide(r rune) bool {
	if r < 0x1100 {
		return false
	}
	for _, w := range wideRanges {
		if r >= w[0] && r <= w[1] {
			return true
		}
	}
	return false
}
