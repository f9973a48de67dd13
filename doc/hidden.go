package doc

// Hidden reports whether r, in a name taken from a recording, would hide
// or move text where memsym writes it: a control character (C0, DEL or
// C1: U+009B begins a terminal's escape sequence as ESC [ does), which
// breaks a line or a table's row or drives the terminal; the line and
// paragraph separators; and the
// bidirectional controls (U+200E, U+200F, U+061C, U+202A to U+202E,
// U+2066 to U+2069), which make a terminal or a browser show the text
// after them in another order than it has. memsym writes such a name
// quoted, or with these characters escaped.
func Hidden(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
