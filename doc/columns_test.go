package doc

import "testing"

func TestColumns(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"blocks[0].attn", 14},
		{"注意力", 6},           // three ideographs
		{"ブロック.attn", 13},    // four katakana, then ASCII
		{"주의", 4},            // hangul syllables
		{"ＡＢ", 4},            // fullwidth letters
		{"é", 1},             // precomposed
		{"e\u0301", 1},       // e and a combining acute accent
		{"a\u200db", 2},      // a zero-width joiner
		{"Linear·apply", 12}, // the middle dot is narrow
		{"🙂", 2},
		{"❤", 1},
		{"❤\ufe0f", 2}, // the heart as an emoji
		{"🙂\ufe0f", 2},
	} {
		if got := Columns(c.s); got != c.want {
			t.Errorf("Columns(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
