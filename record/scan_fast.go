package record

import (
	"encoding/binary"
	"math/bits"

	"memsym/poly"
)

// The fast reading of a line. Writers write most lines one way: keys the
// format knows, each once, strings without escapes, integers that fit, named
// dtypes. parseFast reads such a line in one pass, its position in a local
// variable; for anything else (an escape, an unknown key, "meta", a dtype
// given by its bits, a size given as a string, a header, a mistake) it gives
// up, and parse reads the line again from its start. So every error, and
// every rare form, has one reader, parse, and parseFast only ever accepts a
// line that parse accepts the same way (FuzzParseFast checks it).

// plain marks the bytes a string may hold as they are: printable ASCII but
// for the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// isSpace reports whether c is JSON whitespace other than a newline, which
// ends a line: within one line, JSON's whitespace. (Follow relies on a
// value never running past its line's end.)
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// skipSpace returns the position of the first byte from i on that is not
// whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// plainString reads a string without escapes at b[i] == '"' and returns
// the end of its text, where its closing quote is; 0 if it is not plain.
// It looks at eight bytes at a time while it can.
func plainString(b []byte, i int) int {
	j := i + 1
	for ; j+8 <= len(b); j += 8 {
		x := binary.LittleEndian.Uint64(b[j:])
		if m := special(x); m != 0 {
			j += bits.TrailingZeros64(m) / 8
			if b[j] == '"' {
				return j
			}
			return 0
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; !plain[c] {
			if c == '"' {
				return j
			}
			return 0
		}
	}
	return 0
}

// special marks, in the high bit of each byte, the bytes of x that a plain
// string cannot hold as they are: a quote, a backslash, a control character
// or a byte of 0x80 and above. Only the lowest mark is exact (a borrow may
// mark bytes above it), which is the one plainString uses.
func special(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := x ^ (ones * '"')
	slash := x ^ (ones * '\\')
	return ((quote-ones) & ^quote | (slash-ones) & ^slash | (x - ones*0x20) | x) & highs
}

// fastInt reads an integer of at most 18 digits at b[i], with a minus sign
// when signed, and returns it and the position after it; ok is false for
// anything else, even a valid number (a fraction, 19 digits), which parse
// then reads.
func fastInt(b []byte, i int, signed bool) (v int64, end int, ok bool) {
	neg := false
	if signed && i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(b) && isDigit(b[i]) {
		v = v*10 + int64(b[i]-'0')
		i++
	}
	n := i - start
	if n == 0 || n > 18 || n > 1 && b[start] == '0' {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, i, true
}

// fastInts reads an array of integers into dst[:0] at b[i] == '['.
func fastInts(b []byte, i int, dst []int64, signed bool) ([]int64, int, bool) {
	dst = dst[:0]
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return dst, i + 1, true
	}
	for {
		v, j, ok := fastInt(b, i, signed)
		if !ok {
			return dst, 0, false
		}
		dst = append(dst, v)
		i = skipSpace(b, j)
		if i >= len(b) {
			return dst, 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return dst, i + 1, true
		default:
			return dst, 0, false
		}
	}
}

// parseFast reads line into s.rec when it is in the usual form, and
// reports whether it did; when it did not, s.rec may be half filled and
// parse must read the line.
func (s *Scanner) parseFast(line []byte) bool {
	b := line
	s.resetKind()
	s.sizeAt, s.sizeEnd = -1, -1
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	var seen keySet
	r := &s.rec
	for {
		if i >= len(b) || b[i] != '"' {
			return false // an empty record, or a mistake
		}
		k, end := keyAt(b, i)
		if end == 0 || seen.has(k) {
			return false
		}
		seen |= 1 << k
		// Mostly `": "`; any other spacing takes the loops.
		if i = end + 3; i >= len(b) || b[i-2] != ':' || b[i-1] != ' ' || b[i] <= ' ' {
			i = skipSpace(b, end+1)
			if i >= len(b) || b[i] != ':' {
				return false
			}
			i = skipSpace(b, i+1)
			if i >= len(b) {
				return false
			}
		}
		var ok bool
		switch k {
		case kBuffer, kView:
			r.Buffer.ID, i, ok = fastInt(b, i, true)
		case kOf:
			r.Buffer.Of, i, ok = fastInt(b, i, true)
		case kDType:
			if b[i] != '"' {
				return false
			}
			end := plainString(b, i)
			if end == 0 {
				return false
			}
			r.Buffer.DType, ok = namedDType(b[i+1 : end])
			i = end + 1
		case kShape:
			if b[i] != '[' {
				return false
			}
			s.sizeAt = i
			s.ids.shape, i, ok = fastInts(b, i, s.ids.shape, false)
			r.Buffer.Shape = nonNil(s.ids.shape)
			s.sizeEnd = i
		case kBytes:
			s.sizeAt = i
			var v int64
			v, i, ok = fastInt(b, i, false)
			r.Buffer.Bytes = poly.Int(v)
			s.sizeEnd = i
		case kRole:
			if b[i] != '"' {
				return false
			}
			end := plainString(b, i)
			if end == 0 {
				return false
			}
			r.Buffer.Role, ok = roleOf(b[i+1 : end])
			i = end + 1
		case kName, kGroup, kOp, kPath:
			if b[i] != '"' {
				return false
			}
			end := plainString(b, i)
			if end == 0 {
				return false
			}
			str := s.last[k]
			if string(b[i+1:end]) != str {
				// A group is often the path of the operation before.
				if other := s.last[sameAs[k]]; string(b[i+1:end]) == other {
					str = other
				} else {
					str = s.strs.str(b[i+1 : end])
				}
				s.last[k] = str
			}
			switch k {
			case kName:
				r.Buffer.Name = str
			case kGroup:
				r.Buffer.Group = str
			case kOp:
				r.Op.Label = str
			case kPath:
				r.Op.Path = str
			}
			i, ok = end+1, true
		case kReads:
			if b[i] != '[' {
				return false
			}
			s.ids.reads, i, ok = fastInts(b, i, s.ids.reads, true)
			r.Op.Reads = s.ids.reads
		case kWrites:
			if b[i] != '[' {
				return false
			}
			s.ids.writes, i, ok = fastInts(b, i, s.ids.writes, true)
			r.Op.Writes = s.ids.writes
		case kResult:
			if b[i] != '[' {
				return false
			}
			s.ids.result, i, ok = fastInts(b, i, s.ids.result, true)
			r.Result = nonNil(s.ids.result)
		case kPhase:
			if b[i] != '"' {
				return false
			}
			end := plainString(b, i)
			if end == 0 {
				return false
			}
			r.Op.Phase, ok = phaseOf(b[i+1 : end])
			i = end + 1
		case kLaunch:
			switch {
			case len(b)-i >= 4 && string(b[i:i+4]) == "true":
				r.Op.Launch, i, ok = true, i+4, true
			case len(b)-i >= 5 && string(b[i:i+5]) == "false":
				r.Op.Launch, i, ok = false, i+5, true
			}
		}
		// The header's keys and "meta" are left to parse.
		if !ok {
			return false
		}
		// Mostly `, "` or the closing brace; any other spacing takes the
		// loops.
		if i+2 < len(b) && b[i] == ',' && b[i+1] == ' ' && b[i+2] == '"' {
			i += 2
			continue
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			break
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
	if skipSpace(b, i+1) != len(b) {
		return false
	}
	return s.finishFast(seen)
}

// Each kind's keys, as finish checks them.
var (
	bufferKeys = kindKeys[1].allowed
	viewKeys   = kindKeys[2].allowed
	opKeys     = kindKeys[3].allowed
	resultKeys = kindKeys[4].allowed
)

// finishFast is finish for the kinds parseFast reads, when the record is
// whole and right; it reports false where finish would find a mistake.
func (s *Scanner) finishFast(seen keySet) bool {
	r := &s.rec
	r.Line = s.line
	switch seen & kindKeyMask {
	case 1 << kBuffer:
		if seen&^bufferKeys != 0 {
			return false
		}
		r.Kind = KindBuffer
		switch seen & (1<<kDType | 1<<kShape | 1<<kBytes) {
		case 1<<kDType | 1<<kShape:
			r.Buffer.Bytes = sizeOf(r.Buffer.DType, r.Buffer.Shape)
			return true
		case 1 << kBytes:
			return true
		}
	case 1 << kView:
		if seen&^viewKeys != 0 || !seen.has(kOf) {
			return false
		}
		r.Kind = KindView
		r.Buffer.IsView = true
		return true
	case 1 << kOp:
		if seen&^opKeys != 0 {
			return false
		}
		r.Kind = KindOp
		op := &r.Op
		if op.Label != "" && op.Path == s.lastPath {
			return true
		}
		if checkOp(op) != nil {
			return false
		}
		s.lastPath = op.Path
		return true
	case 1 << kResult:
		if seen&^resultKeys != 0 {
			return false
		}
		r.Kind = KindResult
		return true
	}
	return false
}

// sameAs pairs the keys whose strings are often the same: a buffer's group
// and an operation's path.
var sameAs = [nKeys]key{kName: kName, kOp: kOp, kGroup: kPath, kPath: kGroup}

// keysByLetter lists the keys by their first letter, each with its name
// and closing quote as the little-endian word that the eight bytes from its
// first letter make, and the mask of that word's bytes.
var keysByLetter = func() (t [26][]keyWord) {
	for k := key(0); k < nKeys; k++ {
		name := keyNames[k] + `"`
		w := keyWord{k: k}
		if len(name) <= 8 {
			var buf [8]byte
			copy(buf[:], name)
			w.word = binary.LittleEndian.Uint64(buf[:])
			w.mask = ^uint64(0) >> (64 - 8*len(name))
		}
		c := name[0] - 'a'
		t[c] = append(t[c], w)
	}
	return t
}()

type keyWord struct {
	k          key
	word, mask uint64 // mask 0 for a name too long for a word
}

// keyAt reads a key at b[i] == '"' and returns it and the position of its
// closing quote, or 0 for a string that is not exactly a key's name.
func keyAt(b []byte, i int) (key, int) {
	i++
	if i >= len(b) || b[i] < 'a' || b[i] > 'z' {
		return 0, 0
	}
	cands := keysByLetter[b[i]-'a']
	if i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		for _, w := range cands {
			if w.mask != 0 && x&w.mask == w.word {
				return w.k, i + len(keyNames[w.k])
			}
		}
	}
	for _, w := range cands {
		name := keyNames[w.k]
		if end := i + len(name); end < len(b) && b[end] == '"' && string(b[i:end]) == name {
			return w.k, end
		}
	}
	return 0, 0
}

// resetKind empties s.rec after a record that parseFast or parse read
// whole: only the part of its kind holds anything.
func (s *Scanner) resetKind() {
	r := &s.rec
	switch r.Kind {
	case KindBuffer, KindView:
		r.Buffer = Buffer{}
	case KindOp:
		r.Op = Op{Launch: true}
	case KindResult:
		r.Result = nil
	default:
		s.resetRecord()
		return
	}
	r.Kind, r.Line = 0, 0
}

// roleOf returns the role named b.
func roleOf(b []byte) (Role, bool) {
	switch string(b) {
	case "temp":
		return Temp, true
	case "param":
		return Param, true
	case "input":
		return Input, true
	case "state":
		return State, true
	}
	return 0, false
}

// phaseOf returns the phase named b.
func phaseOf(b []byte) (Phase, bool) {
	switch string(b) {
	case "forward":
		return Forward, true
	case "backward":
		return Backward, true
	case "optimizer":
		return Optimizer, true
	}
	return NoPhase, false
}
