package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"memsym/programs"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "record",
		short: "write a bundled program's recording at given dimensions",
		run:   runRecord,
	})
}

const recordUsage = "--program NAME [--dim K=V]... [--const K=V]... [-o FILE]"

// runRecord records a bundled program and writes the recording in the
// canonical form to stdout, or to a file replaced whole only on success.
func runRecord(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("record", recordUsage, stderr)
	name := fs.String("program", "", "the bundled program's `name` (memsym programs lists them)")
	dims := &settings{what: "dimension"}
	consts := &settings{what: "constant"}
	fs.Var(dims, "dim", "a dimension's value `K=V` (repeatable); the others take their defaults")
	fs.Var(consts, "const", "a constant's value `K=V` (repeatable); the others take their defaults")
	out := fs.String("o", "", "write the recording to `FILE` instead of stdout")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("record takes no arguments, found %q; usage: memsym record %s", rest[0], recordUsage)
	}
	if *name == "" {
		return usagef("record needs --program NAME; memsym programs lists them")
	}
	p, err := programs.Lookup(*name)
	if err != nil {
		return err
	}
	rec, err := p.Record(dims.values, consts.values)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err := rec.WriteTo(stdout)
		return err
	}
	return writeFileAtomic(*out, rec)
}

// writeFileAtomic writes rec to a new file beside path and renames it to
// path, so that path is either left as it was or holds the whole recording.
func writeFileAtomic(path string, rec *record.Recording) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = rec.WriteTo(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// settings is a repeatable flag of one integer each, K=V, such as
// --dim B=2 --dim T=16.
type settings struct {
	what   string // "dimension" or "constant", for messages
	values map[string]int64
}

func (s *settings) String() string {
	if s == nil {
		return ""
	}
	keys := make([]string, 0, len(s.values))
	for k := range s.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + strconv.FormatInt(s.values[k], 10)
	}
	return strings.Join(keys, " ")
}

func (s *settings) Set(v string) error {
	k, x, ok := strings.Cut(v, "=")
	if !ok || !isName(k) {
		return fmt.Errorf("expected NAME=INTEGER, a name being a letter and letters, digits or _, found %q", v)
	}
	n, err := strconv.ParseInt(x, 10, 64)
	if err != nil {
		return fmt.Errorf("%s: expected an integer, found %q", k, x)
	}
	if _, dup := s.values[k]; dup {
		return fmt.Errorf("the %s %s is given twice", s.what, k)
	}
	if s.values == nil {
		s.values = make(map[string]int64)
	}
	s.values[k] = n
	return nil
}

// isName reports whether s is a letter followed by letters, digits or _.
func isName(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c != '_' && (c < '0' || c > '9')) {
			return false
		}
	}
	return s != ""
}
