package record

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"memsym/poly"
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
	kResult
	kMeta
	nKeys
)

var keyNames = [nKeys]string{
	kMemsym: "memsym", kEntry: "entry", kDims: "dims", kConsts: "consts", kRealization: "realization",
	kBuffer: "buffer", kView: "view", kDType: "dtype", kShape: "shape", kBytes: "bytes", kRole: "role",
	kName: "name", kGroup: "group", kOf: "of", kOp: "op", kPath: "path", kReads: "reads",
	kWrites: "writes", kLaunch: "launch", kResult: "result", kMeta: "meta",
}

func lookupKey(b []byte) (key, bool) {
	switch string(b) {
	case "memsym":
		return kMemsym, true
	case "entry":
		return kEntry, true
	case "dims":
		return kDims, true
	case "consts":
		return kConsts, true
	case "realization":
		return kRealization, true
	case "buffer":
		return kBuffer, true
	case "view":
		return kView, true
	case "dtype":
		return kDType, true
	case "shape":
		return kShape, true
	case "bytes":
		return kBytes, true
	case "role":
		return kRole, true
	case "name":
		return kName, true
	case "group":
		return kGroup, true
	case "of":
		return kOf, true
	case "op":
		return kOp, true
	case "path":
		return kPath, true
	case "reads":
		return kReads, true
	case "writes":
		return kWrites, true
	case "launch":
		return kLaunch, true
	case "result":
		return kResult, true
	case "meta":
		return kMeta, true
	}
	return 0, false
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
	{kOp, KindOp, keys(kOp, kPath, kReads, kWrites, kLaunch, kMeta)},
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
	l.ws()
	if l.peek() != '{' {
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
			if !known {
				err = l.skip(0)
			} else {
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

// value reads the value of key k into s.rec.
func (s *Scanner) value(k key) error {
	l, r := &s.lex, &s.rec
	var err error
	switch k {
	case kMemsym:
		var v int64
		v, err = l.integer(`"memsym" must be the format's version, an integer`)
		r.Header.Version = int(min(max(v, -1), 1<<30))
	case kEntry:
		r.Header.Entry, err = s.stringValue(k)
	case kRealization:
		r.Header.Realization, err = s.stringValue(k)
	case kDims:
		err = s.dims()
	case kConsts:
		err = s.consts()
	case kBuffer:
		r.Buffer.ID, err = l.integer(`"buffer" must be an integer id`)
	case kView:
		r.Buffer.ID, err = l.integer(`"view" must be an integer id`)
	case kOf:
		r.Buffer.Of, err = l.integer(`"of" must be the integer id of a buffer or view`)
	case kDType:
		r.Buffer.DType, err = s.dtype()
	case kShape:
		s.ids.shape, err = s.ints(s.ids.shape, `"shape" must be an array of non-negative integers`, true)
		r.Buffer.Shape = nonNil(s.ids.shape)
	case kBytes:
		r.Buffer.Bytes, err = s.bytesValue()
	case kRole:
		r.Buffer.Role, err = s.role()
	case kName:
		r.Buffer.Name, err = s.stringValue(k)
	case kGroup:
		r.Buffer.Group, err = s.stringValue(k)
	case kOp:
		r.Op.Label, err = s.stringValue(k)
	case kPath:
		r.Op.Path, err = s.stringValue(k)
	case kReads:
		s.ids.reads, err = s.ints(s.ids.reads, `"reads" must be an array of integer ids`, false)
		r.Op.Reads = s.ids.reads
	case kWrites:
		s.ids.writes, err = s.ints(s.ids.writes, `"writes" must be an array of integer ids`, false)
		r.Op.Writes = s.ids.writes
	case kLaunch:
		w, ok := l.literal()
		if !ok || w[0] == 'n' {
			return l.errorf(`"launch" must be true or false`)
		}
		r.Op.Launch = w[0] == 't'
	case kResult:
		s.ids.result, err = s.ints(s.ids.result, `"result" must be an array of integer ids`, false)
		r.Result = nonNil(s.ids.result)
	case kMeta:
		err = l.skip(0)
	}
	return err
}

// nonNil returns s, or an empty non-nil slice: a key that is present gives
// a non-nil slice, so that "shape": [] (a scalar) differs from no shape.
func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

func (s *Scanner) stringValue(k key) (string, error) {
	if s.lex.peek() != '"' {
		return "", s.lex.errorf("%q must be a string", keyNames[k])
	}
	b, err := s.lex.str()
	if err != nil {
		return "", err
	}
	return s.strs.str(b), nil
}

// ints reads an array of integers into dst[:0].
func (s *Scanner) ints(dst []int64, want string, nonNegative bool) ([]int64, error) {
	l := &s.lex
	dst = dst[:0]
	if l.peek() != '[' {
		return dst, l.errorf("%s", want)
	}
	l.i++
	l.ws()
	if l.peek() == ']' {
		l.i++
		return dst, nil
	}
	for {
		l.ws()
		at := l.i
		v, err := l.integer(want)
		if err != nil {
			return dst, err
		}
		if nonNegative && v < 0 {
			l.i = at
			return dst, l.errorf("%s", want)
		}
		dst = append(dst, v)
		l.ws()
		switch l.peek() {
		case ',':
			l.i++
		case ']':
			l.i++
			return dst, nil
		default:
			return dst, l.errorf("expected a comma or ] in an array")
		}
	}
}

// object reads a JSON object whose keys are names, calling each for each
// member with the lexer at its value. what names the object in errors.
func (s *Scanner) object(what string, each func(name string) error) error {
	l := &s.lex
	if l.peek() != '{' {
		return l.errorf("%q must be an object", what)
	}
	l.i++
	l.ws()
	if l.peek() == '}' {
		l.i++
		return nil
	}
	for {
		l.ws()
		if l.peek() != '"' {
			return l.errorf("expected a name in double quotes in %q", what)
		}
		b, err := l.str()
		if err != nil {
			return err
		}
		name := s.strs.str(b)
		l.ws()
		if l.peek() != ':' {
			return l.errorf("expected a colon after %q in %q", name, what)
		}
		l.i++
		l.ws()
		if err := each(name); err != nil {
			return err
		}
		l.ws()
		switch l.peek() {
		case ',':
			l.i++
		case '}':
			l.i++
			return nil
		default:
			return l.errorf("expected a comma or } in %q", what)
		}
	}
}

func (s *Scanner) dims() error {
	s.rec.Header.Dims = s.ids.dims[:0]
	err := s.object("dims", func(name string) error {
		if err := checkName("dimension", name); err != nil {
			return err
		}
		for _, d := range s.ids.dims {
			if d.Name == name {
				return fmt.Errorf("dimension %q given twice", name)
			}
		}
		v, err := s.lex.integer(fmt.Sprintf("dimension %s must be an integer of at least 1", name))
		s.ids.dims = append(s.ids.dims, Dim{Name: name, Value: v})
		return err
	})
	s.rec.Header.Dims = s.ids.dims
	return err
}

func (s *Scanner) consts() error {
	s.rec.Header.Consts = s.ids.consts[:0]
	err := s.object("consts", func(name string) error {
		if err := checkName("constant", name); err != nil {
			return err
		}
		for _, c := range s.ids.consts {
			if c.Name == name {
				return fmt.Errorf("constant %q given twice", name)
			}
		}
		l := &s.lex
		if c := l.peek(); c != '-' && !isDigit(c) {
			return l.errorf("constant %s must be a JSON number", name)
		}
		text, _, err := l.number()
		if err != nil {
			return err
		}
		s.ids.consts = append(s.ids.consts, Const{Name: name, Value: s.strs.str(text)})
		return nil
	})
	s.rec.Header.Consts = s.ids.consts
	return err
}

// dtypeList is the named types, for error messages.
const dtypeList = `f64, f32, f16, bf16, f8, i64, i32, i16, i8, u8, i4, u4, bool or {"bits": N}`

func (s *Scanner) dtype() (DType, error) {
	l := &s.lex
	switch l.peek() {
	case '"':
		at := l.i
		b, err := l.str()
		if err != nil {
			return DType{}, err
		}
		if t, ok := namedDType(b); ok {
			return t, nil
		}
		l.i = at
		return DType{}, fmt.Errorf("unknown dtype %q: expected %s", clip(string(b)), dtypeList)
	case '{':
		var t DType
		err := s.object("dtype", func(name string) error {
			if name != "bits" || t.Bits != 0 {
				return fmt.Errorf(`a dtype object has one key, "bits", found %q`, name)
			}
			v, err := l.integer(`"bits" must be an integer of at least 1`)
			if err == nil && (v < 1 || v > 1<<20) {
				return fmt.Errorf(`"bits" must be an integer from 1 to %d, found %d`, 1<<20, v)
			}
			t.Bits = int(v)
			return err
		})
		if err == nil && t.Bits == 0 {
			err = errors.New(`a dtype object must give "bits": expected {"bits": N}`)
		}
		return t, err
	}
	return DType{}, l.errorf(`"dtype" must be one of %s`, dtypeList)
}

func (s *Scanner) role() (Role, error) {
	l := &s.lex
	if l.peek() == '"' {
		at := l.i
		b, err := l.str()
		if err != nil {
			return 0, err
		}
		switch string(b) {
		case "temp":
			return Temp, nil
		case "param":
			return Param, nil
		case "input":
			return Input, nil
		}
		l.i = at
	}
	return 0, l.errorf(`"role" must be "param", "input" or "temp"`)
}

// bytesWant says what "bytes" may be, for errors.
const bytesWant = `"bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2"`

// bytesValue reads an exact non-negative size: a JSON integer of any size,
// or a string "N" or "N/M" in decimal digits with M > 0.
func (s *Scanner) bytesValue() (poly.Rat, error) {
	l := &s.lex
	at := l.i
	var text []byte
	switch c := l.peek(); {
	case isDigit(c):
		t, isInt, err := l.number()
		if err != nil {
			return poly.Rat{}, err
		}
		if !isInt {
			l.i = at
			return poly.Rat{}, l.errorf("%s", bytesWant)
		}
		text = t
	case c == '"':
		t, err := l.str()
		if err != nil {
			return poly.Rat{}, err
		}
		text = t
	default:
		return poly.Rat{}, l.errorf("%s", bytesWant)
	}
	r, ok := parseSize(text)
	if !ok {
		l.i = at
		return poly.Rat{}, l.errorf("%s", bytesWant)
	}
	return r, nil
}

// parseSize reads "N" or "N/M", decimal digits without leading zeros, M > 0.
func parseSize(text []byte) (poly.Rat, bool) {
	num, den := text, []byte(nil)
	for i, c := range text {
		if c == '/' {
			num, den = text[:i], text[i+1:]
			break
		}
	}
	n, ok := parseNatural(num)
	if !ok {
		return poly.Rat{}, false
	}
	if den == nil {
		return n, true
	}
	d, ok := parseNatural(den)
	if !ok || d.IsZero() {
		return poly.Rat{}, false
	}
	return n.Quo(d), true
}

func parseNatural(b []byte) (poly.Rat, bool) {
	if len(b) == 0 || len(b) > 1 && b[0] == '0' {
		return poly.Rat{}, false
	}
	for _, c := range b {
		if !isDigit(c) {
			return poly.Rat{}, false
		}
	}
	if v, ok := parseInt64(b); ok {
		return poly.Int(v), true
	}
	x, _ := new(big.Int).SetString(string(b), 10)
	return poly.FromBigInt(x), true
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
		return fmt.Errorf("unknown key %q in %s: expected %s", unknown, withArticle(kind), allowed.describe())
	}
	if extra := seen &^ allowed; extra != 0 {
		for k := key(0); k < nKeys; k++ {
			if extra.has(k) {
				return fmt.Errorf("key %q does not belong in %s: expected %s", keyNames[k], withArticle(kind), allowed.describe())
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
		if s.rec.Buffer.Of == s.rec.Buffer.ID {
			return fmt.Errorf(`view %d is a view of itself: "of" must name a buffer declared before it`, s.rec.Buffer.ID)
		}
	case KindOp:
		return checkOp(&s.rec.Op)
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

// sizeOf is SizeOf without allocating when the product fits in an int64.
func sizeOf(t DType, shape []int64) poly.Rat {
	p := int64(t.Bits)
	for _, n := range shape {
		var ok bool
		if p, ok = mulSmall(p, n); !ok {
			return SizeOf(t, shape)
		}
	}
	if p%8 == 0 {
		return poly.Int(p / 8)
	}
	return poly.Frac(p, 8)
}

// namedDType returns the named type, its name shared, without a map lookup.
func namedDType(b []byte) (DType, bool) {
	var name string
	switch string(b) {
	case "f64":
		name = "f64"
	case "f32":
		name = "f32"
	case "f16":
		name = "f16"
	case "bf16":
		name = "bf16"
	case "f8":
		name = "f8"
	case "i64":
		name = "i64"
	case "i32":
		name = "i32"
	case "i16":
		name = "i16"
	case "i8":
		name = "i8"
	case "u8":
		name = "u8"
	case "i4":
		name = "i4"
	case "u4":
		name = "u4"
	case "bool":
		name = "bool"
	default:
		return DType{}, false
	}
	return LookupDType(name)
}
