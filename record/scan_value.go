package record

import "fmt"

// value reads the value of key k into s.rec.
func (s *Scanner) value(k key) error {
	l, r := &s.lex, &s.rec
	var err error
	switch k {
	case kMemsym:
		var v int64
		v, err = l.integer(`"memsym" must be the format's version, an integer`)
		r.Header.Version = int(v)
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
		at := l.i
		w, ok := l.literal()
		if !ok || w[0] == 'n' || l.i < len(l.b) && !isDelimiter(l.b[l.i]) {
			l.i = at // the error names the value, null or nulls, not what follows
			if !ok && l.cutLiteral(false) {
				l.hitEnd = true // tr or fals, cut short of true or false
			}
			return l.errorf(`"launch" must be true or false`)
		}
		r.Op.Launch = w[0] == 't'
	case kPhase:
		r.Op.Phase, err = s.phase()
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
		case "state":
			return State, nil
		}
		l.i = at
	}
	return 0, l.errorf(`"role" must be "param", "input", "state" or "temp"`)
}
