package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Command is a recorder command: a template that, with each {NAME} replaced
// by a dimension's value, runs an executor that writes one recording to its
// standard output. It lets any executor (presk, a framework) feed memsym:
//
//	presk memory model.psk --record - --dim B={B} --dim T={T}
//
// The template is split into arguments as a POSIX shell splits words (single
// and double quotes, backslash escapes) but no shell runs it: nothing is
// expanded but the placeholders, which are replaced after splitting, inside
// each argument. {{ and }} stand for literal braces.
type Command struct {
	Template string
	Args     []string      // the template split into arguments, placeholders unreplaced
	Names    []string      // the placeholders, in order of first appearance
	Timeout  time.Duration // 0: no limit
}

// ParseCommand splits template into arguments and finds its placeholders.
func ParseCommand(template string) (*Command, error) {
	args, err := splitWords(template)
	if err != nil {
		return nil, fmt.Errorf("recorder command %q: %w", template, err)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("recorder command is empty: expected a program and its arguments")
	}
	c := &Command{Template: template, Args: args}
	seen := map[string]bool{}
	for _, a := range args {
		if _, err := substitute(a, func(name string) (string, bool) {
			if !seen[name] {
				seen[name] = true
				c.Names = append(c.Names, name)
			}
			return "", true
		}); err != nil {
			return nil, fmt.Errorf("recorder command %q: %w", template, err)
		}
	}
	return c, nil
}

// Argv returns the command's arguments at one point, every placeholder
// replaced by its dimension's value.
func (c *Command) Argv(point []Dim) ([]string, error) {
	argv := make([]string, len(c.Args))
	for i, a := range c.Args {
		s, err := substitute(a, func(name string) (string, bool) {
			for _, d := range point {
				if d.Name == name {
					return fmt.Sprint(d.Value), true
				}
			}
			return "", false
		})
		if err != nil {
			return nil, fmt.Errorf("recorder command %q: %w", c.Template, err)
		}
		argv[i] = s
	}
	return argv, nil
}

// Run runs the command at point, writing its standard output to out. A
// command that cannot start, exits non-zero or outlives the timeout is an
// error naming the point and quoting the end of its standard error.
func (c *Command) Run(ctx context.Context, point []Dim, out io.Writer) error {
	argv, err := c.Argv(point)
	if err != nil {
		return err
	}
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = out
	tail := &tailBuffer{max: 2000}
	cmd.Stderr = tail
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	at := PointString(point)
	switch {
	case err == nil:
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("the recorder at %s did not finish within %s and was stopped%s", at, c.Timeout, tail.quote())
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("the recorder at %s: %q cannot be run: %v", at, argv[0], unwrapExec(err))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("the recorder at %s failed (%s)%s", at, exit.ProcessState, tail.quote())
	}
	return fmt.Errorf("the recorder at %s: %v%s", at, err, tail.quote())
}

func unwrapExec(err error) error {
	var e *exec.Error
	if errors.As(err, &e) {
		return e.Err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// PointString writes a point as the outputs do: "B = 16, T = 256".
func PointString(point []Dim) string {
	var b strings.Builder
	for i, d := range point {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %d", d.Name, d.Value)
	}
	return b.String()
}

// tailBuffer keeps the last max bytes written to it.
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

// quote returns the end of what was written, as ": its standard error
// ends: ..." on one line, or "" if nothing was.
func (t *tailBuffer) quote() string {
	b := t.buf
	if len(b) > t.max {
		b, t.cut = b[len(b)-t.max:], true
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ", writing nothing to its standard error"
	}
	s := strings.ToValidUTF8(string(b), "?")
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines, t.cut = lines[len(lines)-5:], true
	}
	s = strings.Join(lines, " | ")
	if t.cut {
		s = "…" + s
	}
	return fmt.Sprintf("; its standard error ends: %s", s)
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
			if err := checkName("placeholder", name); err != nil {
				return "", err
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

// splitWords splits s into words as a POSIX shell does, without expanding
// anything: blanks separate words; '…' keeps everything literally; "…" keeps
// everything but \" \\ \$ \`; a backslash outside quotes keeps the next
// character.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("a ' at byte %d is never closed", i+1)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("a \" is never closed")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("a \\ at the end escapes nothing")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
