package main

import (
	"fmt"
	"io"
	"slices"

	"memsym/doc"
	"memsym/record"
)

func init() {
	register(&command{
		name:  "validate",
		short: "check that recordings follow the format, one line each",
		run:   validateCmd,
	})
}

const validateUsage = `REC... ("-" reads stdin)

Reads each recording and checks it against the format (docs/recording-format.md):
every record, every id declared before use, temps written before they are read,
the result last. Prints one line per recording, on the standard output for one
that follows the format and on the standard error for one that does not; checks
every recording given, and exits 1 if any of them fails. An executor's authors
can run it on what they write.
`

func validateCmd(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("validate", validateUsage, stderr)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("validate needs one or more recording files")
	}
	if n := slices.Index(files, "-"); n >= 0 && slices.Contains(files[n+1:], "-") {
		return usagef("- is given twice: the standard input is one recording, read once")
	}
	// Every file is checked, each failure one line on stderr as it comes,
	// in the files' order beside the ok lines on stdout; exit 1 if any
	// failed.
	failed := 0
	for _, f := range files {
		sum, err := record.ValidateFile(f)
		if err != nil {
			if _, werr := fmt.Fprintf(stderr, "memsym: %v\n", err); werr != nil {
				return werr
			}
			failed++
			continue
		}
		name, parts := f, doc.Plural(sum.Buffers, "buffer", "buffers")
		if f == "-" {
			name = "<stdin>"
		}
		if sum.Views > 0 {
			parts += ", " + doc.Plural(sum.Views, "view", "views")
		}
		at := "with no dimensions"
		if len(sum.Header.Dims) > 0 {
			at = "at " + sum.Header.Dims.String()
		}
		if _, err := fmt.Fprintf(stdout, "%s: ok: %s, %s, %s %s\n", name,
			parts, doc.Plural(sum.Ops, "operation", "operations"), entryName(&sum.Header), at); err != nil {
			return err
		}
	}
	if failed > 0 {
		return &shownError{failures: failed}
	}
	return nil
}
