// Command memsym says how much memory a program needs, at one point and as
// exact polynomials in its dimensions, and writes that up.
//
// Usage:
//
//	memsym <command> [flags] [arguments]
//
// Run `memsym help` for the commands and `memsym <command> -h` for each.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"memsym/internal/ending"
	"memsym/source"
)

// command is one subcommand: its name, a line for the list, and its run
// function, which gets the arguments after the name.
type command struct {
	name  string
	short string
	run   func(stdout, stderr io.Writer, args []string) error
}

// commands lists the subcommands; each file of this package adds its own.
var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// usageError is bad usage (exit 2), as opposed to a user error such as a
// malformed recording (exit 1).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

func main() {
	err := run(os.Stdout, os.Stderr, os.Args[1:])
	// A run a signal is ending (its undoing under way) ends by the
	// signal, not by what failed meanwhile, such as a folder the undoing
	// removed.
	ending.HaltIfEnded()
	code := exitCode(err, os.Stderr)
	atExit()
	os.Exit(code)
}

// atExit runs just before the process exits: a build for profiling
// (cpuprofile.go) ends its profile there.
var atExit = func() {}

// exitCode prints err, if any, and returns the process's exit code: 0 on
// success, 2 on bad usage, 1 on any other error.
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if isUsage(err) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintf(stderr, "memsym: %s\n", msg)
		}
		return 2
	}
	var shown *shownError
	if !errors.As(err, &shown) {
		fmt.Fprintf(stderr, "memsym: %v\n", err)
	}
	return 1
}

// shownError is a failure whose words a command has already printed, one
// line each as they came (validate's, file by file): only the exit code is
// left to give.
type shownError struct{ failures int }

func (e *shownError) Error() string { return fmt.Sprintf("%d failed", e.failures) }

// run runs memsym with the given arguments (without the program's name).
func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		printCommands(stderr)
		return usagef("")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			printCommands(stdout)
			return nil
		}
		if len(args) > 2 {
			return usagef("help takes one command, found %d words: memsym help COMMAND", len(args)-1)
		}
		c, ok := commands[args[1]]
		if !ok {
			return usagef("unknown command %q: memsym help lists the commands", args[1])
		}
		// The command's own -h prints its usage and flags, to stderr as
		// every command's does; help asked for it, so it goes to stdout.
		err := c.run(stdout, stdout, []string{"-h"})
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	c, ok := commands[name]
	if !ok {
		return usagef("unknown command %q: memsym help lists the commands", name)
	}
	return c.run(stdout, stderr, args[1:])
}

func printCommands(w io.Writer) {
	fmt.Fprintf(w, "memsym says how much memory a program needs, exactly, as a formula in its dimensions.\n\nUsage: memsym <command> [flags] [arguments]\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintf(w, "\nRun `memsym <command> -h` for a command's flags.\n")
}

// newFlagSet returns a FlagSet for a subcommand whose errors and usage go to
// stderr and come back as errors rather than exiting.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("memsym "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: memsym %s %s\n", name, usage)
		// The flags as the usage line, the docs and the messages write
		// them: two dashes, but for -o and -h.
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		io.WriteString(stderr, longDefaults.ReplaceAllString(b.String(), "$1--$2"))
	}
	return fs
}

// longDefaults finds a flag of two letters or more where the flag
// package's defaults list it with one dash.
var longDefaults = regexp.MustCompile(`(?m)^(  )-([A-Za-z][A-Za-z0-9_-]+)`)

// longFlags finds a flag's name of two letters or more in the flag
// package's errors ("flag provided but not defined: -bogus", "invalid value
// "x" for flag -at", "invalid boolean value "x" for -json"), which memsym's
// help and messages write with two dashes; -o and -h keep one.
var longFlags = regexp.MustCompile(`(not defined: |for (?:flag )?|needs an argument: )-([A-Za-z][A-Za-z0-9_-]+)`)

// parseFlags parses args with fs and turns a flag error into bad usage on
// one line; -h prints the usage. Flags may come before or after the
// positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard) // the flag package would print the error and the usage
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				usage()
				return nil, err
			}
			return nil, usagef("%s; %s -h lists the flags", longFlags.ReplaceAllString(err.Error(), "$1--$2"), fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// writeJSON writes v as indented JSON, keys in its types' order, and
// "<", ">" and "&" as themselves: the output is read as JSON, never
// pasted into HTML.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// isUsage reports whether err is bad usage, the user's to correct.
func isUsage(err error) bool {
	var u *usageError
	var s *source.UsageError
	return errors.As(err, &u) || errors.As(err, &s)
}

// given reports whether the flag named name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
