package record

import (
	"bytes"
	"testing"
)

// TestLookupKey checks the key table against every key's name and near misses.
func TestLookupKey(t *testing.T) {
	for k := key(0); k < nKeys; k++ {
		got, ok := lookupKey([]byte(keyNames[k]))
		if !ok || got != k {
			t.Errorf("lookupKey(%q) = %d, %v; want %d", keyNames[k], got, ok, k)
		}
		name := keyNames[k]
		for i := range len(name) {
			miss := []byte(name)
			miss[i] ^= 0x20
			if got, ok := lookupKey(miss); ok {
				t.Errorf("lookupKey(%q) = %d: want no key", miss, got)
			}
		}
		if _, ok := lookupKey([]byte(name + "s")); ok {
			t.Errorf("lookupKey(%q): want no key", name+"s")
		}
	}
	for _, b := range []string{"", "o", "ox", "xxxxxxxxxxx"} {
		if _, ok := lookupKey([]byte(b)); ok {
			t.Errorf("lookupKey(%q): want no key", b)
		}
	}
}

// TestNamedDType checks the dtype switch against the format's table.
func TestNamedDType(t *testing.T) {
	for name, bits := range dtypes {
		got, ok := namedDType([]byte(name))
		if !ok || got != (DType{Name: name, Bits: bits}) {
			t.Errorf("namedDType(%q) = %v, %v; want %d bits", name, got, ok, bits)
		}
	}
	for _, name := range []string{"", "f", "f63", "F32", "bool "} {
		if _, ok := namedDType([]byte(name)); ok {
			t.Errorf("namedDType(%q): want no type", name)
		}
	}
}

// fastAgrees checks one line: if parseFast reads it, parse reads it too,
// into the same record and the same size span.
func fastAgrees(t *testing.T, line []byte) {
	s := NewScanner(nil, "l.jsonl")
	s.line = 2
	if !s.parseFast(line) {
		return
	}
	fast := describeRecord(&s.rec, true)
	fastAt, fastEnd := s.sizeAt, s.sizeEnd
	full := NewScanner(nil, "l.jsonl")
	full.line = 2
	if err := full.parse(line); err != nil {
		t.Fatalf("parseFast read %q, which parse refuses: %v", line, err)
	}
	if got := describeRecord(&full.rec, true); got != fast {
		t.Fatalf("%q:\nparseFast %s\nparse     %s", line, fast, got)
	}
	if fastAt != full.sizeAt || fastEnd != full.sizeEnd {
		t.Fatalf("%q: size at [%d, %d) by parseFast, [%d, %d) by parse", line, fastAt, fastEnd, full.sizeAt, full.sizeEnd)
	}
}

func TestParseFastAgrees(t *testing.T) {
	for _, a := range followCorpus(t) {
		for _, line := range bytes.Split([]byte(a), []byte("\n")) {
			fastAgrees(t, line)
		}
	}
	for _, tc := range readErrors {
		for _, line := range bytes.Split([]byte(tc.in), []byte("\n")) {
			fastAgrees(t, line)
		}
	}
}

func FuzzParseFast(f *testing.F) {
	for _, a := range followCorpus(f) {
		for _, line := range bytes.Split([]byte(a), []byte("\n")) {
			f.Add(line)
		}
	}
	for _, tc := range readErrors {
		for _, line := range bytes.Split([]byte(tc.in), []byte("\n")) {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // not a line
		}
		fastAgrees(t, line)
	})
}

// TestRoleAndPhaseNames checks parseFast's names against the format's.
func TestRoleAndPhaseNames(t *testing.T) {
	for r, name := range roleNames {
		if got, ok := roleOf([]byte(name)); !ok || got != Role(r) {
			t.Errorf("roleOf(%q) = %v, %v", name, got, ok)
		}
	}
	for _, p := range Phases {
		if got, ok := phaseOf([]byte(p.String())); !ok || got != p {
			t.Errorf("phaseOf(%q) = %v, %v", p, got, ok)
		}
	}
	if _, ok := phaseOf(nil); ok {
		t.Error("phaseOf of nothing gives a phase")
	}
}
