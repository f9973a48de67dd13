package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// progress draws a bar on stderr while points are recorded, only when stderr
// is a terminal: a log or a test sees nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	n     int
	what  string
}

func newProgress(w io.Writer, total int, what string) *progress {
	if f, ok := w.(*os.File); !ok || !isTerminal(f) {
		w = nil
	}
	p := &progress{w: w, total: total, what: what}
	p.draw()
	return p
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.draw()
}

func (p *progress) draw() {
	if p.w == nil || p.total == 0 {
		return
	}
	const width = 30
	filled := width * p.n / p.total
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.what, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), p.n, p.total)
}

func (p *progress) done() {
	if p.w != nil {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 50+len(p.what)))
	}
}
