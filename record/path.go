package record

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"memsym/doc"
)

// checkPath checks an operation's call path: calls separated by dots, each
// a name perhaps followed by a fold's iteration, "blocks[0].ff.up".
func checkPath(path string) error {
	if path != "" && !validPath(path) {
		return fmt.Errorf("path %q: expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]", path)
	}
	return nil
}

// maxIndexDigits bounds an iteration's digits, so that it fits in an int64.
const maxIndexDigits = 18

// validPath reports whether a non-empty path is valid, in one pass.
func validPath(p string) bool {
	i := 0
	for {
		start := i
		for i < len(p) && p[i] != '.' && p[i] != '[' && p[i] != ']' {
			if p[i] < utf8.RuneSelf {
				if p[i] < 0x20 || p[i] == 0x7f {
					return false // a newline or an escape would break memsym's one-line output
				}
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(p[i:])
			if doc.Hidden(r) {
				return false // a C1 control, a separator or a bidirectional control, as above
			}
			i += n
		}
		if i == start {
			return false
		}
		if i < len(p) && p[i] == '[' {
			i++
			digits := i
			for i < len(p) && isDigit(p[i]) {
				i++
			}
			n := i - digits
			if n == 0 || n > maxIndexDigits || n > 1 && p[digits] == '0' || i == len(p) || p[i] != ']' {
				return false
			}
			i++
		}
		if i == len(p) {
			return true
		}
		if p[i] != '.' {
			return false
		}
		i++
	}
}

// splitSegment splits a valid path's "name[i]" into its name and index (-1
// when none).
func splitSegment(seg string) (string, int64) {
	i := strings.IndexByte(seg, '[')
	if i < 0 {
		return seg, -1
	}
	v, _ := parseInt64([]byte(seg[i+1 : len(seg)-1]))
	return seg[:i], v
}

// SplitPath returns an operation's call, its path with the folds'
// iterations taken out ("blocks[0].ff.up" is "blocks.ff.up"), and those
// iterations in order ([0]). The path must be valid, as in a Recording.
func SplitPath(path string) (call string, iterations []int64) {
	if !strings.Contains(path, "[") {
		return path, nil
	}
	var b strings.Builder
	for i, seg := range strings.Split(path, ".") {
		name, index := splitSegment(seg)
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(name)
		if index >= 0 {
			iterations = append(iterations, index)
		}
	}
	return b.String(), iterations
}
