package record

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// lexer reads the JSON values of one line, in place. It knows JSON's
// grammar (RFC 8259) but nothing of the format's records.
type lexer struct {
	b       []byte
	i       int
	scratch []byte // the last unescaped string
	hitEnd  bool   // the last error was the line ending too soon
}

// maxDepth bounds the nesting of the values that are skipped ("meta").
const maxDepth = 512

func (l *lexer) reset(line []byte) {
	l.b, l.i, l.hitEnd = line, 0, false
}

// ws skips JSON whitespace.
func (l *lexer) ws() {
	for l.i < len(l.b) {
		if c := l.b[l.i]; c > ' ' || c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return
		}
		l.i++
	}
}

// peek returns the next byte, or 0 at the end of the line.
func (l *lexer) peek() byte {
	if l.i < len(l.b) {
		return l.b[l.i]
	}
	return 0
}

// errorf returns an error that says what was expected and what was found at
// the current position.
func (l *lexer) errorf(format string, args ...any) error {
	if l.i >= len(l.b) {
		l.hitEnd = true
	}
	return fmt.Errorf("%s, found %s", fmt.Sprintf(format, args...), l.found())
}

// found describes the token at the current position for an error message.
func (l *lexer) found() string {
	if l.i >= len(l.b) {
		return "the end of the line"
	}
	switch c := l.b[l.i]; {
	case c == '"':
		probe := lexer{b: l.b, i: l.i}
		if s, err := probe.str(); err == nil {
			return fmt.Sprintf("%q", clip(string(s)))
		}
		return "an unfinished string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	}
	j := l.i
	for j < len(l.b) && j-l.i < 24 && !isDelimiter(l.b[j]) {
		j++
	}
	if j == l.i {
		// A delimiter as it is, not quoted as though it were a string
		// (a string is shown quoted); another byte escaped.
		if c := l.b[j]; c > ' ' && c < 0x7f {
			return string(c)
		}
		return fmt.Sprintf("%q", l.b[j:j+1])
	}
	w := l.b[l.i:j]
	if utf8.Valid(w) && isPrintable(w) {
		return string(w)
	}
	return fmt.Sprintf("%q", w)
}

// isPrintable reports whether w shows as it is: no control character, and
// no character that prints as nothing or as a space, such as a byte order
// mark or a no-break space (those are quoted, "\ufeff").
func isPrintable(w []byte) bool {
	for _, r := range string(w) {
		if !unicode.IsPrint(r) || r == ' ' {
			return false
		}
	}
	return true
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// str reads a string at the current position, which must be '"', and
// returns its unescaped bytes: a slice of the line when it has no escapes,
// else the lexer's scratch. Either is valid until the next call.
func (l *lexer) str() ([]byte, error) {
	start := l.i + 1
	i := start
	for i < len(l.b) {
		c := l.b[i]
		if c == '"' {
			l.i = i + 1
			return l.b[start:i], nil
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	buf := append(l.scratch[:0], l.b[start:i]...)
	for {
		// The line's end, or the \r before its newline in a file of CRLF
		// lines, which ends the line as whitespace does.
		if i >= len(l.b) || i == len(l.b)-1 && l.b[i] == '\r' {
			l.i, l.hitEnd = i, true
			return nil, errors.New("the line ends inside a string: expected its closing \"")
		}
		switch c := l.b[i]; {
		case c == '"':
			l.i = i + 1
			l.scratch = buf
			return buf, nil
		case c == '\\':
			r, n, err := unescape(l.b[i:])
			if err != nil {
				l.i = i
				if escapeCut(l.b[i:]) {
					l.hitEnd = true
				}
				return nil, err
			}
			buf = utf8.AppendRune(buf, r)
			i += n
		case c < 0x20:
			l.i = i
			return nil, fmt.Errorf("a control character (byte 0x%02x) in a string: expected it escaped, as \\u%04x", c, c)
		case c >= 0x80:
			r, n := utf8.DecodeRune(l.b[i:])
			if r == utf8.RuneError && n <= 1 {
				l.i = i
				if !utf8.FullRune(l.b[i:]) {
					l.hitEnd = true // a character the line's end cut short
				}
				return nil, fmt.Errorf("invalid UTF-8 (byte 0x%02x) in a string: a recording is UTF-8", c)
			}
			buf = append(buf, l.b[i:i+n]...)
			i += n
		default:
			buf = append(buf, c)
			i++
		}
	}
}

// unescape decodes the escape at the start of b (which begins with a
// backslash) and returns the rune and the bytes it took.
func unescape(b []byte) (rune, int, error) {
	if len(b) < 2 {
		return 0, 0, errors.New("the line ends inside a string's escape")
	}
	switch b[1] {
	case '"', '\\', '/':
		return rune(b[1]), 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return 0, 0, fmt.Errorf("a \\u escape must have four hex digits, found %q", clip(string(b[:min(len(b), 6)])))
		}
		if !utf16.IsSurrogate(r) {
			return r, 6, nil
		}
		if r < 0xdc00 && len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if lo, ok := hex4(b[8:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
				return utf16.DecodeRune(r, lo), 12, nil
			}
		}
		return 0, 0, fmt.Errorf("a lone surrogate \\u%04x in a string: expected a high surrogate followed by a low one", r)
	}
	return 0, 0, fmt.Errorf("an unknown escape %q in a string: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", b[:2])
}

// escapeCut reports whether b, an escape unescape refused, from its
// backslash to the line's end, is one the line's end cut short rather than
// a wrong one: a backslash alone, \u with fewer than four hex digits, or a
// high surrogate whose low one is missing or cut short.
func escapeCut(b []byte) bool {
	if len(b) < 2 {
		return true
	}
	if b[1] != 'u' {
		return false
	}
	if len(b) < 6 {
		return isHex(b[2:])
	}
	hi, ok := hex4(b[2:])
	if !ok || hi < 0xd800 || hi > 0xdbff || len(b) >= 12 {
		return false
	}
	// The low surrogate's escape so far, completed as \udc00 would
	// complete it: a low surrogate if it was cut short of one.
	lo := append(b[6:len(b):len(b)], `\udc00`[len(b)-6:]...)
	r, ok := hex4(lo[2:])
	return lo[0] == '\\' && lo[1] == 'u' && ok && r >= 0xdc00 && r <= 0xdfff
}

// isHex reports whether b holds hex digits alone.
func isHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number reads a JSON number at the current position and returns its text
// and whether it is an integer (no fraction, no exponent).
func (l *lexer) number() ([]byte, bool, error) {
	b, i := l.b, l.i
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
		if i < len(b) && isDigit(b[i]) {
			l.i = start
			return nil, false, l.errorf("expected a number without leading zeros")
		}
	case i < len(b) && isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		l.i = i
		return nil, false, l.errorf("expected a digit in a number")
	}
	isInt := true
	if i < len(b) && b[i] == '.' {
		isInt = false
		i++
		if i >= len(b) || !isDigit(b[i]) {
			l.i = i
			return nil, false, l.errorf("expected a digit after a number's decimal point")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		isInt = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			l.i = i
			return nil, false, l.errorf("expected a digit in a number's exponent")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	l.i = i
	return b[start:i], isInt, nil
}

// parseInt64 converts a JSON integer's text and reports whether it fits.
func parseInt64(text []byte) (int64, bool) {
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	var u uint64
	for _, c := range text {
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true // -u wraps to the right two's complement value
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

// integer reads a JSON integer that fits in an int64. want says what the
// value must be, for the error: `"shape" must be ...`.
func (l *lexer) integer(want string) (int64, error) {
	if c := l.peek(); c != '-' && !isDigit(c) {
		return 0, l.errorf("%s", want)
	}
	at := l.i
	text, isInt, err := l.number()
	if err != nil {
		return 0, err
	}
	if !isInt {
		l.i = at
		return 0, l.errorf("%s", want)
	}
	v, ok := parseInt64(text)
	if !ok {
		l.i = at
		return 0, fmt.Errorf("%s, found %s, which does not fit in a 64-bit integer", want, text)
	}
	return v, nil
}

// literal reads true, false or null.
func (l *lexer) literal() ([]byte, bool) {
	for _, w := range [...]string{"true", "false", "null"} {
		if len(l.b)-l.i >= len(w) && string(l.b[l.i:l.i+len(w)]) == w {
			l.i += len(w)
			return l.b[l.i-len(w) : l.i], true
		}
	}
	return nil, false
}

// cutLiteral reports whether the rest of the line is a literal its end
// cut short: a proper prefix of true or false, or of null when null is
// allowed where it stands.
func (l *lexer) cutLiteral(null bool) bool {
	rest := string(l.b[l.i:])
	if rest == "" {
		return false
	}
	for _, w := range [...]string{"true", "false", "null"} {
		if len(rest) < len(w) && w[:len(rest)] == rest && (null || w != "null") {
			return true
		}
	}
	return false
}

// skip reads any JSON value and ignores it.
func (l *lexer) skip(depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("values nested more than %d deep", maxDepth)
	}
	switch c := l.peek(); {
	case c == '"':
		_, err := l.str()
		return err
	case c == '-' || isDigit(c):
		_, _, err := l.number()
		return err
	case c == '{' || c == '[':
		return l.skipContainer(c, depth)
	}
	if _, ok := l.literal(); ok {
		return nil
	}
	if l.cutLiteral(true) {
		l.hitEnd = true
	}
	return l.errorf("expected a JSON value")
}

func (l *lexer) skipContainer(open byte, depth int) error {
	close := byte('}')
	if open == '[' {
		close = ']'
	}
	l.i++
	l.ws()
	if l.peek() == close {
		l.i++
		return nil
	}
	for {
		l.ws()
		if open == '{' {
			if l.peek() != '"' {
				return l.errorf("expected a key in double quotes")
			}
			if _, err := l.str(); err != nil {
				return err
			}
			l.ws()
			if l.peek() != ':' {
				return l.errorf("expected a colon after a key")
			}
			l.i++
			l.ws()
		}
		if err := l.skip(depth + 1); err != nil {
			return err
		}
		l.ws()
		switch l.peek() {
		case ',':
			l.i++
		case close:
			l.i++
			return nil
		default:
			return l.errorf("expected a comma or %q after a value", close)
		}
	}
}
