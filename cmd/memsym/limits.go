package main

import (
	"fmt"
	"io"
)

// writeNotes writes a note for each budget that has one, notes' i-th for
// budget i, named when there are several as the table names it (names,
// budgetLabel), each followed by suffix.
func writeNotes(w io.Writer, notes, names []string, suffix string) {
	for i, l := range notes {
		if l == "" {
			continue
		}
		if len(names) > 1 {
			l = "under " + names[i] + ", " + l
		}
		fmt.Fprintf(w, "note: %s%s\n", l, suffix)
	}
}

// notConfirmed is the suffix of a note on an answer past a program's sizes
// under --confirm.
func notConfirmed(confirm bool) string {
	if confirm {
		return "; not confirmed: the program cannot be recorded there"
	}
	return ""
}

// writeFirstNote writes the first of notes that says something, once: a
// note on the line gone along, the same under every budget it applies to.
func writeFirstNote(w io.Writer, notes []string) {
	for _, l := range notes {
		if l != "" {
			fmt.Fprintf(w, "note: %s\n", l)
			return
		}
	}
}
