package main

import (
	"fmt"
	"io"

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
the result last. Prints one line per recording; exits 1 at the first that fails.
An executor's authors can run it on what they write.
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
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			return err
		}
		views := 0
		for i := range rec.Buffers {
			if rec.Buffers[i].IsView {
				views++
			}
		}
		name, parts := f, plural(len(rec.Buffers)-views, "buffer", "buffers")
		if f == "-" {
			name = "<stdin>"
		}
		if views > 0 {
			parts += ", " + plural(views, "view", "views")
		}
		fmt.Fprintf(stdout, "%s: ok: %s, %s, %s at %s\n", name,
			parts, plural(len(rec.Ops), "operation", "operations"),
			entryName(rec.Header.Entry, rec.Header.Realization), record.PointString(rec.Header.Dims))
	}
	return nil
}
