package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"memsym/model"
	"memsym/record"
)

// assignments is a repeatable K=V flag of integers.
type assignments []assignment

type assignment struct {
	name  string
	value int64
}

// atLeastOne refuses, as bad usage, a value --at gives a dimension below
// 1, as fit, crossover and eval say it.
func (at assignments) atLeastOne() error {
	for _, a := range at {
		if a.value < 1 {
			return usagef("--at %s=%d: dimensions are integers of at least 1", a.name, a.value)
		}
	}
	return nil
}

func (a *assignments) String() string {
	var s []string
	for _, x := range *a {
		s = append(s, fmt.Sprintf("%s=%d", x.name, x.value))
	}
	return strings.Join(s, ",")
}

func (a *assignments) Set(v string) error {
	m, err := parseAssignments(v)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, x := range *a {
			if x.name == k {
				return fmt.Errorf("%s is given twice", k)
			}
		}
		*a = append(*a, assignment{k, m[k]})
	}
	return nil
}

// point returns the assignments as a point, in the order given.
func (a assignments) point() record.Point {
	p := make(record.Point, len(a))
	for i, x := range a {
		p[i] = record.Dim{Name: x.name, Value: x.value}
	}
	return p
}

func (a assignments) values() map[string]int64 {
	m := make(map[string]int64)
	for _, x := range a {
		m[x.name] = x.value
	}
	return m
}

// parseAssignments reads "B=2,T=16" (spaces allowed around the parts).
func parseAssignments(s string) (map[string]int64, error) {
	m := make(map[string]int64)
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("expected NAME=INTEGER, found %q", part)
		}
		if err := checkName(k); err != nil {
			return nil, err
		}
		n, err := parseInteger(k, v)
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("%s is given twice", k)
		}
		m[k] = n
	}
	return m, nil
}

// parseInteger reads the value v given to name: an integer that fits in
// int64, and one too large (or too small) for it said so, not as though it
// were no integer. Dimensions and constants are at least 1: the caller
// refuses smaller values.
func parseInteger(name, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		size := "large"
		if strings.HasPrefix(v, "-") {
			size = "small"
		}
		return 0, fmt.Errorf("%s: %s is too %s: expected an integer from 1 to %d", name, v, size, int64(math.MaxInt64))
	}
	if err != nil {
		return 0, fmt.Errorf("%s: expected an integer, found %q", name, v)
	}
	return n, nil
}

// checkName refuses a name that no dimension or constant can have, as the
// recording format does.
func checkName(name string) error { return record.CheckName("dimension or constant", name) }

// gridFlag is the repeatable --grid D=a,b,c.
type gridFlag []gridDim

type gridDim struct {
	name   string
	values []int64
}

func (g *gridFlag) String() string { return "" }

func (g *gridFlag) Set(v string) error {
	k, list, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("expected D=a,b,c, found %q", v)
	}
	d := gridDim{name: strings.TrimSpace(k)}
	if err := checkName(d.name); err != nil {
		return err
	}
	for _, x := range strings.Split(list, ",") {
		n, err := parseInteger(d.name, strings.TrimSpace(x))
		if err != nil {
			return err
		}
		if n < 1 {
			return fmt.Errorf("%s = %d: dimensions are integers of at least 1", d.name, n)
		}
		for _, y := range d.values {
			if y == n {
				return fmt.Errorf("%s: %d is given twice; a grid has three different values per dimension", d.name, n)
			}
		}
		d.values = append(d.values, n)
	}
	if len(d.values) != 3 {
		return fmt.Errorf("%s: a grid has three values per dimension, found %d", d.name, len(d.values))
	}
	for _, e := range *g {
		if e.name == d.name {
			return fmt.Errorf("%s is given twice", d.name)
		}
	}
	*g = append(*g, d)
	return nil
}

// seedValue is a flag of a seed: a non-negative integer, of 64 bits.
type seedValue uint64

func (s *seedValue) String() string { return strconv.FormatUint(uint64(*s), 10) }

func (s *seedValue) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return fmt.Errorf("the seed is a non-negative integer, from 0 to %d", uint64(math.MaxUint64))
	}
	*s = seedValue(n)
	return nil
}

// seedFlag defines a seed flag on fs, as fs.Uint64 does, but whose
// refusal says what a seed is.
func seedFlag(fs *flag.FlagSet, name string, value uint64, usage string) *uint64 {
	p := new(uint64)
	*p = value
	fs.Var((*seedValue)(p), name, usage)
	return p
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkLine checks --along and --at's names against the program's
// dimensions (model.CheckLine), saying a refusal with its flag: --along's
// value, or --at whole. none follows the words for a program without
// dimensions (crossover's ", so nothing crosses over").
func checkLine(dims []string, along string, at assignments, none string) error {
	names := make([]string, len(at))
	for i, a := range at {
		names[i] = a.name
	}
	err := model.CheckLine(dims, along, names)
	var le *model.LineError
	switch {
	case !errors.As(err, &le):
		return err
	case le.Along && len(dims) == 0:
		return usagef("--along %s: %v%s", along, err, none)
	case le.Along:
		return usagef("--along %s: %v", along, err)
	}
	return usagef("%s: %v", strings.TrimSpace("--at "+at.String()), err)
}
