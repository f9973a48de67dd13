package record

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// key is one of the keys a record may have.
type key uint8

const (
	kMemsym key = iota
	kEntry
	kDims
	kConsts
	kRealization
	kBuffer
	kView
	kDType
	kShape
	kBytes
	kRole
	kName
	kGroup
	kOf
	kOp
	kPath
	kReads
	kWrites
	kLaunch
	kPhase
	kResult
	kMeta
	nKeys
)

var keyNames = [nKeys]string{
	kMemsym: "memsym", kEntry: "entry", kDims: "dims", kConsts: "consts", kRealization: "realization",
	kBuffer: "buffer", kView: "view", kDType: "dtype", kShape: "shape", kBytes: "bytes", kRole: "role",
	kName: "name", kGroup: "group", kOf: "of", kOp: "op", kPath: "path", kReads: "reads",
	kWrites: "writes", kLaunch: "launch", kPhase: "phase", kResult: "result", kMeta: "meta",
}

// lookupKey returns the key named b: its length and a letter pick the one
// candidate, which one comparison confirms.
func lookupKey(b []byte) (key, bool) {
	if len(b) < 2 {
		return 0, false
	}
	k := nKeys
	switch c := b[0]; len(b) {
	case 2:
		switch b[1] {
		case 'f':
			k = kOf
		case 'p':
			k = kOp
		}
	case 4:
		switch c {
		case 'd':
			k = kDims
		case 'v':
			k = kView
		case 'n':
			k = kName
		case 'p':
			k = kPath
		case 'm':
			k = kMeta
		case 'r':
			k = kRole
		}
	case 5:
		switch c {
		case 'e':
			k = kEntry
		case 's':
			k = kShape
		case 'b':
			k = kBytes
		case 'd':
			k = kDType
		case 'g':
			k = kGroup
		case 'r':
			k = kReads
		case 'p':
			k = kPhase
		}
	case 6:
		switch c {
		case 'm':
			k = kMemsym
		case 'c':
			k = kConsts
		case 'b':
			k = kBuffer
		case 'w':
			k = kWrites
		case 'l':
			k = kLaunch
		case 'r':
			k = kResult
		}
	case 11:
		k = kRealization
	}
	if k == nKeys || string(b) != keyNames[k] {
		return 0, false
	}
	return k, true
}

type keySet uint32

func keys(ks ...key) keySet {
	var s keySet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

func (s keySet) has(k key) bool { return s&(1<<k) != 0 }

// kindKeys are the keys that make a record's kind; a record has exactly one.
var kindKeys = [...]struct {
	key     key
	kind    Kind
	allowed keySet
}{
	{kMemsym, KindHeader, keys(kMemsym, kEntry, kDims, kConsts, kRealization, kMeta)},
	{kBuffer, KindBuffer, keys(kBuffer, kDType, kShape, kBytes, kRole, kName, kGroup, kMeta)},
	{kView, KindView, keys(kView, kOf, kDType, kShape, kName, kMeta)},
	{kOp, KindOp, keys(kOp, kPath, kReads, kWrites, kLaunch, kPhase, kMeta)},
	{kResult, KindResult, keys(kResult, kMeta)},
}

const kindKeyMask = keySet(1<<kMemsym | 1<<kBuffer | 1<<kView | 1<<kOp | 1<<kResult)

// describe lists a set of keys for an error message: "a", "b" or "c".
func (s keySet) describe() string {
	var names []string
	for k := key(0); k < nKeys; k++ {
		if s.has(k) {
			names = append(names, fmt.Sprintf("%q", keyNames[k]))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// parse reads one line's record into s.rec.
func (s *Scanner) parse(line []byte) error {
	l := &s.lex
	l.reset(line)
	s.resetRecord()
	s.sizeAt, s.sizeEnd = -1, -1
	l.ws()
	if c := l.peek(); c != '{' {
		// A line that is no JSON at all, such as a recorder's log line,
		// is quoted from its start, not cut at its first delimiter
		// ("found INFO" for "INFO: starting").
		if rest := bytes.TrimRight(line[l.i:], " \t\r\n"); (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && len(rest) > 0 && bytes.IndexAny(rest, ":, ") > 0 {
			return fmt.Errorf("expected a record, a JSON object {...}, found %q", clip(string(rest)))
		}
		if s.line == 1 && l.i == 0 && len(line) < len(byteOrderMark) && bytes.HasPrefix(byteOrderMark, line) {
			l.hitEnd = true // a byte order mark cut short
		}
		return l.errorf("expected a record, a JSON object {...}")
	}
	l.i++
	var seen keySet
	unknown := ""
	l.ws()
	if l.peek() == '}' {
		l.i++
	} else {
		for {
			l.ws()
			if l.peek() != '"' {
				return l.errorf("expected a key in double quotes")
			}
			kb, err := l.str()
			if err != nil {
				return err
			}
			k, known := lookupKey(kb)
			name := ""
			if !known {
				name = string(kb)
				if unknown == "" {
					unknown = name
				}
			} else if seen.has(k) {
				return fmt.Errorf("key %q given twice: a record's keys are unique", keyNames[k])
			} else {
				seen |= 1 << k
				name = keyNames[k]
			}
			l.ws()
			if l.peek() != ':' {
				return l.errorf("expected a colon after the key %q", name)
			}
			l.i++
			l.ws()
			switch {
			case !known:
				err = l.skip(0)
			case k == kShape || k == kBytes:
				s.sizeAt = l.i
				err = s.value(k)
				s.sizeEnd = l.i
			default:
				err = s.value(k)
			}
			if err != nil {
				return err
			}
			l.ws()
			if c := l.peek(); c == ',' {
				l.i++
				continue
			} else if c == '}' {
				l.i++
				break
			}
			return l.errorf("expected a comma or } after the value of %q", name)
		}
	}
	l.ws()
	if l.i < len(l.b) {
		return l.errorf("expected the end of the line after the record's closing }")
	}
	return s.finish(seen, unknown)
}

// resetRecord empties s.rec, keeping its slices' memory.
func (s *Scanner) resetRecord() {
	s.rec = Record{Op: Op{Launch: true}}
	s.ids.shape = s.ids.shape[:0]
	s.ids.reads = s.ids.reads[:0]
	s.ids.writes = s.ids.writes[:0]
	s.ids.result = s.ids.result[:0]
	s.ids.dims = s.ids.dims[:0]
	s.ids.consts = s.ids.consts[:0]
}

// finish checks the record's keys as a whole and completes it.
func (s *Scanner) finish(seen keySet, unknown string) error {
	kinds := seen & kindKeyMask
	if kinds == 0 {
		if unknown != "" {
			return fmt.Errorf("unknown key %q: a record has one of the keys %s", unknown, kindKeyMask.describe())
		}
		return fmt.Errorf("a record without a kind: expected one of the keys %s", kindKeyMask.describe())
	}
	if bits.OnesCount32(uint32(kinds)) > 1 {
		return fmt.Errorf("a record with more than one kind (%s): expected exactly one", strings.ReplaceAll(kinds.describe(), " or ", " and "))
	}
	var allowed keySet
	for _, kk := range kindKeys {
		if seen.has(kk.key) {
			s.rec.Kind, allowed = kk.kind, kk.allowed
		}
	}
	s.rec.Line = s.line
	kind := s.rec.Kind
	if unknown != "" {
		return fmt.Errorf("unknown key %q in %s: expected %s", unknown, kind.WithArticle(), allowed.describe())
	}
	if extra := seen &^ allowed; extra != 0 {
		for k := key(0); k < nKeys; k++ {
			if extra.has(k) {
				return fmt.Errorf("key %q does not belong in %s: expected %s", keyNames[k], kind.WithArticle(), allowed.describe())
			}
		}
	}
	switch kind {
	case KindHeader:
		if !seen.has(kDims) {
			return errors.New(`the header has no "dims": expected {"memsym": 1, "dims": {"B": 2, ...}}, with {} for none`)
		}
		return checkHeader(&s.rec.Header)
	case KindBuffer:
		return s.finishBuffer(seen)
	case KindView:
		s.rec.Kind = KindView
		s.rec.Buffer.IsView = true
		if !seen.has(kOf) {
			return fmt.Errorf(`view %d has no "of": expected the id of the buffer or view it is a view of`, s.rec.Buffer.ID)
		}
	case KindOp:
		// Operations in a row often share a path: the one last found
		// valid is not checked again.
		op := &s.rec.Op
		if op.Label != "" && op.Path == s.lastPath {
			return nil
		}
		if err := checkOp(op); err != nil {
			return err
		}
		s.lastPath = op.Path
	}
	return nil
}

func (s *Scanner) finishBuffer(seen keySet) error {
	b := &s.rec.Buffer
	hasType, hasShape, hasBytes := seen.has(kDType), seen.has(kShape), seen.has(kBytes)
	switch {
	case hasBytes && (hasType || hasShape):
		return fmt.Errorf(`buffer %d gives both "bytes" and a dtype or shape: expected "dtype" and "shape", or "bytes"`, b.ID)
	case hasBytes:
		return nil
	case hasType && hasShape:
		b.Bytes = sizeOf(b.DType, b.Shape)
		return nil
	case hasType:
		return fmt.Errorf(`buffer %d has a "dtype" but no "shape": expected both, or "bytes"`, b.ID)
	case hasShape:
		return fmt.Errorf(`buffer %d has a "shape" but no "dtype": expected both, or "bytes"`, b.ID)
	}
	return fmt.Errorf(`buffer %d has no size: expected "dtype" and "shape", or "bytes"`, b.ID)
}
