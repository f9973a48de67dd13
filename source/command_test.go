package source

import (
	"bytes"
	"context"
	"fmt"
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
	// A brace of JSON in the command: the message says how to write it.
	if _, err := ParseCommand(`echo '{"result": []}' {B}`); err == nil || !strings.HasSuffix(err.Error(), "a brace the command means as it is (JSON, say) is written {{ or }}") {
		t.Errorf("a command with JSON: %v", err)
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
		// Escapes that would colour the terminal or turn text around are
		// shown escaped, not sent to it; a CRLF's CR is dropped.
		{template: `printf '\033[31mred\033[0m\tdone\342\200\256x\r\n' >&2; exit 1`, err: `its standard error ends: \x1b[31mred\x1b[0m done\u202ex`},
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

// Whichever job ends first, the failure said is the least index's; the jobs
// after it are cancelled, those before it run on.
func TestRunJobsFirstInOrder(t *testing.T) {
	for range 5 {
		var early error
		start := time.Now()
		err := runJobs(context.Background(), 4, 4, nil, func(ctx context.Context, i int) error {
			switch i {
			case 0: // succeeds, after the later failures
				time.Sleep(150 * time.Millisecond)
				early = ctx.Err()
				return nil
			case 1: // fails, after job 3 has
				time.Sleep(100 * time.Millisecond)
				return fmt.Errorf("job 1 failed")
			case 2: // runs until it is stopped
				select {
				case <-ctx.Done():
					return fmt.Errorf("job 2 stopped")
				case <-time.After(5 * time.Second):
					return fmt.Errorf("job 2 ran on")
				}
			default: // fails at once
				return fmt.Errorf("job 3 failed")
			}
		})
		if err == nil || err.Error() != "job 1 failed" {
			t.Errorf("error = %v, want job 1's", err)
		}
		if early != nil {
			t.Errorf("job 0 was cancelled (%v) by a later job's failure", early)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("runJobs took %s: job 2 was not cancelled", d)
		}
	}
}

// The recorder failing at several points is said failing at the first in
// the grid's order, however long each takes to fail.
func TestRecorderFirstFailure(t *testing.T) {
	c, err := ParseCommand(`[ {B} = 1 ] && sleep 0.2; echo boom {B} >&2; exit 3`)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		r := &Recorder{Cmd: c, Jobs: 3}
		_, err := r.Recordings(context.Background(), Spec{Grid: []GridDim{{Name: "B", Values: [3]int64{1, 2, 3}}}})
		r.Close()
		if want := "the recorder at B = 1 failed (exit status 3); its standard error ends: boom 1"; err == nil || err.Error() != want {
			t.Errorf("error = %v, want %q", err, want)
		}
	}
}

// The standard input can be read only once: a grid given it is refused
// before anything is read.
func TestFilesRefuseStdin(t *testing.T) {
	for _, f := range []*Files{
		{Grid: []string{"a.jsonl", "b.jsonl", "-"}},
		{Grid: []string{"-"}},
		{Grid: []string{"a.jsonl"}, Checks: []string{"-"}},
	} {
		_, err := f.Recordings(context.Background(), Spec{})
		want := "-: memsym reads each recording of a grid more than once: give regular files, not standard input or a pipe"
		if err == nil || err.Error() != want {
			t.Errorf("%v, checks %v: error = %v, want %q", f.Grid, f.Checks, err, want)
		}
	}
}
