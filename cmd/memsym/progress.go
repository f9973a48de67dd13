package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a bar on stderr while points are recorded, only when stderr
// is a terminal: a log or a test sees nothing.
type progress struct {
	w    io.Writer
	what string
}

func newProgress(w io.Writer, what string) *progress {
	if f, ok := w.(*os.File); !ok || !isTerminal(f) {
		w = nil
	}
	return &progress{w: w, what: what}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update draws the bar at done of total, and clears it when all are done.
// Its caller serializes the calls.
func (p *progress) update(done, total int) {
	if p.w == nil || total == 0 {
		return
	}
	if done == total {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 50+len(p.what)))
		return
	}
	const width = 30
	filled := width * done / total
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.what, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total)
}
