package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"memsym/doc"
	"memsym/record"
)

// Command is a recorder command: a shell command line that, with each {NAME}
// replaced by a dimension's value, runs an executor that writes one
// recording to its standard output. It lets any executor (presk, PyTorch,
// another framework) feed memsym:
//
//	presk memory model.psk --record - --dim B={B} --dim T={T}
//
// The line runs under `sh -c`, so quotes, pipes and environment settings
// work as in a terminal. Placeholders are replaced by integers before the
// shell sees the line; {{ and }} stand for literal braces.
type Command struct {
	Template string
	Names    []string      // the placeholders, in order of first appearance
	Timeout  time.Duration // 0: no limit
}

// ParseCommand checks template's placeholders and returns the command.
func ParseCommand(template string) (*Command, error) {
	if strings.TrimSpace(template) == "" {
		return nil, fmt.Errorf("recorder command is empty: expected a shell command that writes a recording")
	}
	c := &Command{Template: template}
	seen := map[string]bool{}
	if _, err := substitute(template, func(name string) (string, bool) {
		if !seen[name] {
			seen[name] = true
			c.Names = append(c.Names, name)
		}
		return "", true
	}); err != nil {
		return nil, fmt.Errorf("recorder command %q: %w", template, err)
	}
	// Let the shell read the line (with 1 for every placeholder) without
	// running it, so a quote left open is refused before anything runs.
	line, _ := substitute(template, func(string) (string, bool) { return "1", true })
	var stderr bytes.Buffer
	check := exec.Command("sh", "-n", "-c", line)
	check.Stderr = &stderr
	if err := check.Run(); err != nil {
		msg := strings.TrimSpace(strings.ReplaceAll(stderr.String(), "\n", " "))
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("recorder command %q: the shell cannot read it: %s", template, msg)
	}
	return c, nil
}

// Line returns the command line at one point, every placeholder replaced by
// its dimension's value.
func (c *Command) Line(point record.Point) (string, error) {
	s, err := substitute(c.Template, func(name string) (string, bool) {
		v, ok := point.Value(name)
		return strconv.FormatInt(v, 10), ok
	})
	if err != nil {
		return "", fmt.Errorf("recorder command %q: %w", c.Template, err)
	}
	return s, nil
}

// Run runs the command at point under sh -c, in a process group of its
// own, writing its standard output to out. A command that exits non-zero or
// outlives the timeout is an error naming the point and quoting the end of
// its standard error. When the command's own process ends, or ctx is done,
// every process it started is killed: its recording is what it wrote
// before its process exited. When writing to out fails the command is
// stopped at once, and that error is Run's; a watch's, which says the
// output is no recording, is returned as it is, however the command exited.
func (c *Command) Run(ctx context.Context, point record.Point, out io.Writer) error {
	_, err := c.run(ctx, point, point.String(), "", out)
	return err
}

// run is Run, its messages naming the point as at does, and those of a
// command that failed or ran out of time ending with note (pointWords).
// It returns the end of the command's standard error too, kept as a
// failure's is (at most a few thousand bytes, however much it wrote):
// what a command that succeeded wrote there is the note's to say
// (stderrNotes).
func (c *Command) run(ctx context.Context, point record.Point, at, note string, out io.Writer) (*tailBuffer, error) {
	tail := &tailBuffer{max: tailMax}
	line, err := c.Line(point)
	if err != nil {
		return tail, err
	}
	parent := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	err = runGroup(ctx, exec.Command("sh", "-c", line), out, tail)
	var bad *badOutput
	switch {
	case err == nil:
		return tail, nil
	case errors.As(err, &bad):
		return tail, bad.err
	case parent.Err() != nil:
		return tail, fmt.Errorf("the recorder at %s was stopped: %w", at, parent.Err())
	case ctx.Err() == context.DeadlineExceeded:
		return tail, fmt.Errorf("the recorder at %s did not finish within %s and was stopped%s%s", at, c.Timeout, tail.quote(), note)
	case errors.Is(err, exec.ErrNotFound):
		return tail, fmt.Errorf("the recorder at %s cannot be run: no sh on this machine", at)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		why := exit.ProcessState.String()
		if exit.ExitCode() == 127 {
			why = "exit status 127: the shell found no such command"
		}
		return tail, fmt.Errorf("the recorder at %s failed (%s)%s%s", at, why, tail.quote(), note)
	}
	return tail, fmt.Errorf("the recorder at %s: %v%s", strings.TrimSuffix(at, ","), err, tail.quote())
}

// tailMax is how many bytes of the end of a recorder's standard error are
// quoted, at most.
const tailMax = 2000

// tailBuffer keeps the last max bytes written to it (and at most twice
// that at any time, however much is written).
type tailBuffer struct {
	buf []byte
	max int
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(p), nil
}

// quote returns the end of what was written, as "; its standard error
// ends: ..." on one line, or a note that nothing was.
func (t *tailBuffer) quote() string {
	s := t.text()
	if s == "" {
		return ", writing nothing to its standard error"
	}
	return fmt.Sprintf("; its standard error ends: %s", s)
}

// text returns the end of what was written on one line, at most its last
// max bytes and 5 lines, those before cut off said with "…", each line
// shown as a message may show it (shown) and joined by " | "; "" when
// nothing but blanks was written.
func (t *tailBuffer) text() string {
	b := t.buf
	if len(b) > t.max {
		b, t.cut = b[len(b)-t.max:], true
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	s := strings.ToValidUTF8(string(b), "?")
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines, t.cut = lines[len(lines)-5:], true
	}
	for i, l := range lines {
		lines[i] = shown(strings.TrimRight(l, "\r"))
	}
	s = strings.Join(lines, " | ")
	if t.cut {
		s = "…" + s
	}
	return s
}

// shown is a line of a command's output as a message may show it: a tab as
// a space, and a character that would move the cursor, colour the
// terminal or turn the text around (doc.Hidden) escaped, as "\x1b".
func shown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case doc.Hidden(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// substitute replaces each {NAME} in s by lookup(NAME), and {{ and }} by
// single braces.
func substitute(s string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return "", fmt.Errorf("a { without its }: write {NAME} for a dimension, {{ for a brace")
			}
			name := s[i+1 : i+j]
			if err := record.CheckName("placeholder", name); err != nil {
				return "", fmt.Errorf("%w; a brace the command means as it is (JSON, say) is written {{ or }}", err)
			}
			v, ok := lookup(name)
			if !ok {
				return "", fmt.Errorf("{%s} names no dimension of the grid", name)
			}
			b.WriteString(v)
			i += j
		case c == '}':
			return "", fmt.Errorf("a } without its {: write }} for a brace")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
