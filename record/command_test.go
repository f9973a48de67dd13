package record

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "presk memory m.psk --dim B={B}", want: []string{"presk", "memory", "m.psk", "--dim", "B={B}"}},
		{in: `  a   'b c'  "d \"e\" \$f"  g\ h `, want: []string{"a", "b c", `d "e" $f`, "g h"}},
		{in: `''`, want: []string{""}},
		{in: `a'b'"c"`, want: []string{"abc"}},
		{in: `'open`, err: "never closed"},
		{in: `"open`, err: "never closed"},
		{in: `end\`, err: "escapes nothing"},
	}
	for _, tt := range tests {
		got, err := splitWords(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("splitWords(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestCommandArgv(t *testing.T) {
	c, err := ParseCommand(`rec --dims "B={B},T={T}" --literal {{x}} {T}`)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Names, []string{"B", "T"}) {
		t.Errorf("Names = %q, want [B T]", c.Names)
	}
	argv, err := c.Argv([]Dim{{"B", 16}, {"T", 256}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rec", "--dims", "B=16,T=256", "--literal", "{x}", "256"}
	if !reflect.DeepEqual(argv, want) {
		t.Errorf("Argv = %q, want %q", argv, want)
	}
	if _, err := c.Argv([]Dim{{"B", 16}}); err == nil || !strings.Contains(err.Error(), "{T} names no dimension") {
		t.Errorf("Argv without T: error = %v", err)
	}
	for _, bad := range []string{"", "rec {B", "rec B}", "rec {1B}"} {
		if _, err := ParseCommand(bad); err == nil {
			t.Errorf("ParseCommand(%q) succeeded, want an error", bad)
		}
	}
}

func TestCommandRun(t *testing.T) {
	point := []Dim{{"B", 2}, {"T", 3}}
	tests := []struct {
		template string
		timeout  time.Duration
		out      string
		err      string
	}{
		{template: `sh -c 'echo B={B} T={T}'`, out: "B=2 T=3\n"},
		{template: `sh -c 'echo oops >&2; exit 3'`, err: "the recorder at B = 2, T = 3 failed (exit status 3); its standard error ends: oops"},
		{template: `sh -c 'exit 1'`, err: "writing nothing to its standard error"},
		{template: `sh -c 'i=0; while [ $i -lt 3000 ]; do echo line $i >&2; i=$((i+1)); done; exit 1'`, err: "…line 2995 | line 2996 | line 2997 | line 2998 | line 2999"},
		{template: `sleep 10`, timeout: 100 * time.Millisecond, err: "did not finish within 100ms and was stopped"},
		{template: `/nonexistent/recorder {B}`, err: `"/nonexistent/recorder" cannot be run`},
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
