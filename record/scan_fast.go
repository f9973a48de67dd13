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
//
// It reads eight bytes at a time where it can: a key with the comma before
// it and the colon after it as one pattern, the key guessed from the key
// before (writers write their keys in one order); a string's text as two
// words, which find its end and its interned copy without a call; up to
// seven digits at once. Scan has fastRecord, parseFast's reader, read a
// line where it lies in its buffer, before it knows where the line ends:
// the reader never passes a newline. FuzzScanFast checks Scan against
// parse alone.

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
		next, more, ok := arrayNext(b, j)
		if !ok {
			return dst, 0, false
		}
		if !more {
			return dst, next, true
		}
		i = next
	}
}

// arrayNext reads what follows an element of an array at b[i]: spaces,
// then a comma and spaces (more, and next is where the next element
// starts) or the closing bracket (next is just past it); ok is false for
// anything else.
func arrayNext(b []byte, i int) (next int, more, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, false, false
	}
	switch b[i] {
	case ',':
		return skipSpace(b, i+1), true, true
	case ']':
		return i + 1, false, true
	}
	return 0, false, false
}

// word returns the eight bytes of b from i, little-endian; b must hold them.
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// lowBytes returns the mask of the n low bytes of a word, n from 0 to 7.
func lowBytes(n int) uint64 { return 1<<bytesShift(n) - 1 }

// bytesShift is n bytes as a shift count, n from 0 to 7. Masked to six
// bits, it tells the compiler that the shift is under 64, so that it
// leaves out the test a shift of 64 or more would need (in the loops of
// intsAt and fastRecord, two instructions and a flag at every number).
func bytesShift(n int) uint { return uint(n) * 8 & 63 }

// lowMark returns the position of the byte that the lowest mark of m, not
// zero, falls in. Beside bits.TrailingZeros64(m) >> 3 it tells the
// compiler that m is not zero, which spares the instructions for zero.
func lowMark(m uint64) int {
	if m == 0 {
		panic("record: lowMark of zero")
	}
	return bits.TrailingZeros64(m) >> 3
}

// plainText reads a string without escapes at b[i], a quote, where the line
// is b[:n] and the bytes of b up to its capacity may be loaded, though not
// trusted: a byte at n or beyond ends the string as a mistake does. It
// returns the end of the text, where its closing quote is (0 if the string
// is not plain or not closed within the line), and the text's first
// sixteen bytes as two words, the bytes past its end zero.
func plainText(b []byte, n, i int) (end int, w0, w1 uint64) {
	if i >= n || b[i] != '"' {
		return 0, 0, 0
	}
	j := i + 1
	full := b[:cap(b)]
	if j+16 <= len(full) {
		x := word(full, j)
		if m := special(x); m != 0 {
			k := bits.TrailingZeros64(m) / 8
			if e := j + k; e < n && full[e] == '"' {
				return e, x & lowBytes(k), 0
			}
			return 0, 0, 0
		}
		y := word(full, j+8)
		if m := special(y); m != 0 {
			k := bits.TrailingZeros64(m) / 8
			if e := j + 8 + k; e < n && full[e] == '"' {
				return e, x, y & lowBytes(k)
			}
			return 0, 0, 0
		}
		return plainString(b[:n], i), x, y
	}
	end = plainString(b[:n], i)
	if end == 0 {
		return 0, 0, 0
	}
	w0, w1 = textWords(b[j:end])
	return end, w0, w1
}

// textWords returns a string's first sixteen bytes as two little-endian
// words, the bytes past its end zero.
func textWords[S string | []byte](t S) (w0, w1 uint64) {
	for k := 0; k < len(t) && k < 16; k++ {
		if k < 8 {
			w0 |= uint64(t[k]) << (8 * k)
		} else {
			w1 |= uint64(t[k]) << (8 * (k - 8))
		}
	}
	return w0, w1
}

// parseFast reads line into s.rec when it is in the usual form, and
// reports whether it did; when it did not, s.rec may be half filled and
// parse must read the line.
//
// It loads the line eight bytes at a time, and so may load the bytes of
// line's capacity past its end (the Scanner's buffer), but never trusts
// them: whatever is at len(line) or beyond ends a key, a string or a
// number as a mistake would, and parseFast gives the line up.
func (s *Scanner) parseFast(line []byte) bool {
	i := 0
	if len(line) == 0 || line[0] != '{' {
		i = skipSpace(line, 0)
	}
	end, seen, ok := s.fastRecord(line, i)
	if !ok || end != len(line) && skipSpace(line, end) != len(line) {
		return false
	}
	return s.finishFast(seen)
}

// fastRecord reads the object at b[i] into s.rec, as parseFast does, and
// returns the position after its closing brace and its keys. It never
// reads a newline: b may hold more than one line, and the object ends
// before the first newline when fastRecord reads it.
func (s *Scanner) fastRecord(b []byte, i int) (int, keySet, bool) {
	n := len(b)
	full := b[:cap(b)]
	r := &s.rec
	switch r.Kind { // resetKind, inline for the usual kinds
	case KindBuffer:
		r.Buffer = Buffer{}
		r.Kind, r.Line = 0, 0
	case KindOp:
		r.Op = Op{Launch: true}
		r.Kind, r.Line = 0, 0
	default:
		s.resetKind()
	}
	s.sizeAt, s.sizeEnd = -1, -1
	if i >= n || full[i] != '{' {
		return 0, 0, false
	}
	var seen keySet
	// The key before, to guess the next by the writers' order; at the
	// start, the kind of the record before stands for it.
	prev := nKeys + key(s.lastKind&7)
	var k key
	for {
		// At the brace, or just past a value: mostly the comma and the
		// key guessed and `": ` after it, compared as a pattern.
		if p := &s.keyPat[prev&31]; i+16 <= len(full) && i+int(p.n) < n {
			w := full[i : i+16 : i+16]
			if binary.LittleEndian.Uint64(w)&p.m0 == p.w0 && binary.LittleEndian.Uint64(w[8:])&p.m1 == p.w1 {
				k = p.k
				i += int(p.n)
				goto value
			}
		}
		// Or else the loops.
		if prev < nKeys {
			// Just past a value: spaces, then a comma or the brace.
			i = skipSpace(full[:n], i)
			if i >= n {
				return 0, 0, false
			}
			if full[i] == '}' {
				break
			}
			if full[i] != ',' {
				return 0, 0, false
			}
		}
		{
			i = skipSpace(full[:n], i+1)
			if i >= n || full[i] != '"' {
				return 0, 0, false // an empty record, or a mistake
			}
			var end int
			k, end = keyAt(full[:n], i)
			if end == 0 {
				return 0, 0, false
			}
			if prev < nKeys {
				s.keyPat[prev&31] = keyPats[k&31]
			} else {
				s.keyPat[prev&31] = keyPats[k&31|32]
			}
			i = skipSpace(full[:n], end+1)
			if i >= n || full[i] != ':' {
				return 0, 0, false
			}
			i = skipSpace(full[:n], i+1)
			if i >= n {
				return 0, 0, false
			}
		}
	value:
		if seen.has(k) {
			return 0, 0, false
		}
		seen |= 1 << k
		prev = k
		var ok bool
		switch k {
		case kBuffer, kView:
			r.Buffer.ID, i, ok = intAt(full, n, i, true)
		case kOf:
			r.Buffer.Of, i, ok = intAt(full, n, i, true)
		case kDType:
			// Mostly the dtype before: a name of at most seven bytes is
			// its word, as a plain string holds no zero byte.
			if i+9 <= len(full) {
				w := full[i : i+9 : i+9]
				x := binary.LittleEndian.Uint64(w[1:9])
				if m := special(x); m != 0 {
					t := lowMark(m)
					if w[0] == '"' && uint8(x>>bytesShift(t)) == '"' && i+1+t < n && x&lowBytes(t) == s.dtypeWord && t > 0 {
						r.Buffer.DType, i, ok = s.dtypeLast, i+2+t, true
						break
					}
				}
			}
			end, w0, _ := plainText(full[:n], n, i)
			if end == 0 {
				return 0, 0, false
			}
			if r.Buffer.DType, ok = namedDType(full[i+1 : end]); ok && end-i-1 < 8 {
				s.dtypeWord, s.dtypeLast = w0, r.Buffer.DType
			}
			i = end + 1
		case kShape:
			s.sizeAt = i
			s.ids.shape, i, ok = intsAt(full, n, i, s.ids.shape, false)
			r.Buffer.Shape = nonNil(s.ids.shape)
			s.sizeEnd = i
		case kBytes:
			s.sizeAt = i
			var v int64
			v, i, ok = intAt(full, n, i, false)
			r.Buffer.Bytes = poly.Int(v)
			s.sizeEnd = i
		case kRole:
			end, _, _ := plainText(full[:n], n, i)
			if end == 0 {
				return 0, 0, false
			}
			r.Buffer.Role, ok = roleOf(full[i+1 : end])
			i = end + 1
		case kName, kGroup, kOp, kPath:
			var str string
			if i+18 <= len(full) {
				// Mostly a plain string of at most sixteen bytes, read
				// and shared here, without a call: its text is in x0 and
				// x1, its closing quote at the first byte they mark, or
				// just after them.
				w := full[i : i+18 : i+18]
				x0 := binary.LittleEndian.Uint64(w[1:9])
				x1 := binary.LittleEndian.Uint64(w[9:17])
				var t int
				if m := special(x0); m != 0 {
					t = lowMark(m)
				} else {
					t = 8 + bits.TrailingZeros64(special(x1))>>3 // 16 for none
				}
				end := i + 1 + t
				if w[0] != '"' || end >= n {
					goto str
				}
				switch {
				case t < 8:
					if uint8(x0>>bytesShift(t)) != '"' {
						return 0, 0, false // a mistake, or an escape: for parse
					}
					x0, x1 = x0&lowBytes(t), 0
				case t < 16:
					if uint8(x1>>bytesShift(t-8)) != '"' {
						return 0, 0, false
					}
					x1 &= lowBytes(t - 8)
				case w[17] != '"':
					goto str
				}
				if t > 0 {
					if slot := s.strs.nearSlot(x0, x1, t); slot.holds(full[i+1:end], x0, x1) {
						str = slot.s
					} else {
						str = s.strs.lookupFar(full[i+1:end], x0, x1, slot)
					}
				}
				i = end + 1
				goto set
			}
		str:
			{
				end, w0, w1 := plainText(full[:n], n, i)
				if end == 0 {
					return 0, 0, false
				}
				switch t := full[i+1 : end]; {
				case len(t) == 0:
				case len(t) <= 16:
					str = s.strs.lookup(t, w0, w1)
				default:
					str = s.strs.str(t)
				}
				i = end + 1
			}
		set:
			switch k {
			case kName:
				r.Buffer.Name = str
			case kGroup:
				r.Buffer.Group = str
			case kOp:
				r.Op.Label = str
			default:
				r.Op.Path = str
			}
			ok = true
		case kReads:
			s.ids.reads, i, ok = intsAt(full, n, i, s.ids.reads, true)
			r.Op.Reads = s.ids.reads
		case kWrites:
			s.ids.writes, i, ok = intsAt(full, n, i, s.ids.writes, true)
			r.Op.Writes = s.ids.writes
		case kResult:
			s.ids.result, i, ok = intsAt(full, n, i, s.ids.result, true)
			r.Result = nonNil(s.ids.result)
		case kPhase:
			end, _, _ := plainText(full[:n], n, i)
			if end == 0 {
				return 0, 0, false
			}
			r.Op.Phase, ok = phaseOf(full[i+1 : end])
			i = end + 1
		case kLaunch:
			switch {
			case n-i >= 4 && string(full[i:i+4]) == "true":
				r.Op.Launch, i, ok = true, i+4, true
			case n-i >= 5 && string(full[i:i+5]) == "false":
				r.Op.Launch, i, ok = false, i+5, true
			}
		}
		// The header's keys and "meta" are left to parse.
		if !ok {
			return 0, 0, false
		}
		// Mostly the comma before the next key, left to the pattern, or
		// the closing brace.
		if i < n && full[i] == '}' {
			break
		}
	}
	return i + 1, seen, true
}

// keyPat is a key as parseFast expects it after the comma before it,
// `, "name": `, or after the brace, `{"name": `: its n bytes, at most
// sixteen, as two little-endian words and their masks.
type keyPat struct {
	w0, m0, w1, m1 uint64
	n              int32
	k              key
}

// noKeyPat matches nothing: eight zero bytes, where a pattern is tried only
// at a brace or after a value.
var noKeyPat = keyPat{m0: ^uint64(0)}

// keyPats are the keys' patterns: key k's after a comma at k, after the
// brace at k + 32. A key too long for one (only "realization") has
// noKeyPat.
var keyPats = func() (t [64]keyPat) {
	for k := key(0); k < nKeys; k++ {
		for brace, start := range []string{", ", "{"} {
			pat := start + `"` + keyNames[k] + `": `
			p := &t[int(k)+32*brace]
			if len(pat) > 16 {
				*p = noKeyPat
				continue
			}
			var buf [16]byte
			copy(buf[:], pat)
			p.w0 = binary.LittleEndian.Uint64(buf[:8])
			p.w1 = binary.LittleEndian.Uint64(buf[8:])
			p.m0 = ^uint64(0) >> (64 - 8*min(len(pat), 8))
			if len(pat) > 8 {
				p.m1 = ^uint64(0) >> (64 - 8*(len(pat)-8))
			}
			p.n, p.k = int32(len(pat)), k
		}
	}
	return t
}()

// intAt is fastInt for parseFast: the line is full[:n], and the bytes of
// full past n may be loaded but are not trusted. It reads up to seven
// digits at once (SWAR), and leaves longer numbers to fastInt. Unlike
// fastInt it takes the digits of "1.5" or "1e3" for an integer: its caller
// must refuse anything after them but a space, a comma, ] or }.
func intAt(full []byte, n, i int, signed bool) (v int64, end int, ok bool) {
	if i+8 <= len(full) {
		w := full[i : i+8 : i+8]
		x := binary.LittleEndian.Uint64(w)
		if m := nonDigits(x); m != 0 { // else eight digits or more
			d := lowMark(m)
			if e := i + d; d > 0 && e < n && (d == 1 || byte(x) != '0') {
				return int64(digitsOf(x, d)), e, true
			}
		}
	}
	return fastInt(full[:n], i, signed) // a sign, many digits, a mistake
}

// nonDigits marks the bytes of x that are not ASCII digits with a non-zero
// byte; the lowest mark is exact (a carry may mark bytes above it).
func nonDigits(x uint64) uint64 {
	const f0, threes, sixes = 0xf0f0f0f0f0f0f0f0, 0x3030303030303030, 0x0606060606060606
	return (x&f0 ^ threes) | ((x+sixes)&f0 ^ threes)
}

// digitsOf returns the value of the d decimal digits (1 to 7) at the low
// end of x, loaded little-endian, the first the most significant.
func digitsOf(x uint64, d int) uint64 {
	x = (x & 0x0f0f0f0f0f0f0f0f) << bytesShift(8-d) // leading zeros in place of the rest
	x = (x * (10<<8 + 1)) >> 8
	x = ((x & 0x00ff00ff00ff00ff) * (100<<16 + 1)) >> 16
	return ((x & 0x0000ffff0000ffff) * (10000<<32 + 1)) >> 32
}

// intsAt is fastInts for parseFast, at full[i], the line full[:n]. It
// reads numbers as intAt does, inline while they are of at most six digits
// each followed by `, ` or `]`; anything else takes intsRest.
func intsAt(full []byte, n, i int, dst []int64, signed bool) ([]int64, int, bool) {
	dst = dst[:0]
	if i >= n || full[i] != '[' {
		return dst, 0, false
	}
	i++
	after := false
	for i+8 <= len(full) {
		w := full[i : i+8 : i+8]
		x := binary.LittleEndian.Uint64(w)
		m := nonDigits(x)
		if m == 0 {
			break // eight digits or more
		}
		d := lowMark(m)
		e := i + d
		if uint(d-1) >= 6 || e+1 >= n || d > 1 && byte(x) == '0' {
			break
		}
		dst = append(dst, int64(digitsOf(x, d)))
		// The bytes after the digits are in x.
		switch t := x >> bytesShift(d); {
		case uint16(t) == ','|' '<<8:
			i = e + 2
			continue
		case uint8(t) == ']':
			return dst, e + 1, true
		}
		i, after = e, true
		break
	}
	return intsRest(full, n, i, dst, signed, after)
}

// intsRest reads the rest of an array of integers into dst with intAt and
// the loops, from full[i]: just past a number when after, else at one's
// start or at the ] of an empty array.
func intsRest(full []byte, n, i int, dst []int64, signed, after bool) ([]int64, int, bool) {
	b := full[:n]
	if !after {
		i = skipSpace(b, i)
		if len(dst) == 0 && i < n && b[i] == ']' {
			return dst, i + 1, true
		}
	}
	for {
		if !after {
			v, j, ok := intAt(full, n, i, signed)
			if !ok {
				return dst, 0, false
			}
			dst = append(dst, v)
			i = j
		}
		after = false
		next, more, ok := arrayNext(b, i)
		if !ok {
			return dst, 0, false
		}
		if !more {
			return dst, next, true
		}
		i = next
	}
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
