package doc

import "testing"

func TestHidden(t *testing.T) {
	for _, r := range []rune{'\n', '\t', 0, 0x7f, 0x80, 0x85, 0x9b, 0x9f, 0x2028, 0x2029, 0x200e, 0x200f, 0x061c, 0x202a, 0x202e, 0x2066, 0x2069} {
		if !Hidden(r) {
			t.Errorf("Hidden(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', 'a', 'ñ', 'Б', '中', 0x2030, 0x202f, 0x2065, 0x206a, '`'} {
		if Hidden(r) {
			t.Errorf("Hidden(%U) = true", r)
		}
	}
}
