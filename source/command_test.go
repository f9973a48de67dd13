package source

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"memsym/record"
)

func TestCommandLine(t *testing.T) {
	c, err := ParseCommand(`rec --dims "B={B},T={T}" --literal {{x}} {T}`)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Names, []string{"B", "T"}) {
		t.Errorf("Names = %q, want [B T]", c.Names)
	}
	line, err := c.Line(record.Point{{Name: "B", Value: 16}, {Name: "T", Value: 256}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `rec --dims "B=16,T=256" --literal {x} 256`; line != want {
		t.Errorf("Line = %q, want %q", line, want)
	}
	if _, err := c.Line(record.Point{{Name: "B", Value: 16}}); err == nil || !strings.Contains(err.Error(), "{T} names no dimension") {
		t.Errorf("Line without T: error = %v", err)
	}
	for _, bad := range []string{"", "  ", "rec {B", "rec B}", "rec {1B}"} {
		if _, err := ParseCommand(bad); err == nil {
			t.Errorf("ParseCommand(%q) succeeded, want an error", bad)
		}
	}
}

func TestCommandRun(t *testing.T) {
	point := record.Point{{Name: "B", Value: 2}, {Name: "T", Value: 3}}
	tests := []struct {
		template string
		timeout  time.Duration
		out      string
		err      string
	}{
		{template: `echo B={B} T={T}`, out: "B=2 T=3\n"},
		{template: `X={B}; echo "$X" | tr 2 7`, out: "7\n"},
		{template: `echo oops >&2; exit 3`, err: "the recorder at B = 2, T = 3 failed (exit status 3); its standard error ends: oops"},
		{template: `exit 1`, err: "writing nothing to its standard error"},
		{template: `i=0; while [ $i -lt 3000 ]; do echo line $i >&2; i=$((i+1)); done; exit 1`, err: "…line 2995 | line 2996 | line 2997 | line 2998 | line 2999"},
		{template: `sleep 10`, timeout: 100 * time.Millisecond, err: "did not finish within 100ms and was stopped"},
		{template: `/nonexistent/recorder {B}`, err: "the shell found no such command); its standard error ends: sh: 1: /nonexistent/recorder: not found"},
	}
	for _, tt := range tests {
		c, err := ParseCommand(tt.template)
		if err != nil {
			t.Fatal(err)
		}
		c.Timeout = tt.timeout
		var out bytes.Buffer
		err = c.Run(context.Background(), point, &out)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error = %v, want one containing %q", tt.template, err, tt.err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error spans lines: %q", tt.template, err)
			}
			continue
		}
		if err != nil || out.String() != tt.out {
			t.Errorf("%s: out = %q, err = %v; want %q", tt.template, out.String(), err, tt.out)
		}
	}
}
