// Package reports renders documents (package memsym/doc) in formats
// people read: Markdown, HTML, PDF and TikZ for papers, one renderer per
// format, registered by name. It knows nothing of recordings nor of how a
// chapter is written: a document is all it sees.
package reports

import (
	"sort"
	"sync"

	"memsym/doc"
)

// Renderer writes a document in one format.
type Renderer interface {
	// Name is the format's name, as a user asks for it ("md", "pdf").
	Name() string
	// Render writes d's files into dir, which must exist, named as o
	// says, and returns their names, sorted. Each file appears whole or
	// not at all.
	Render(d *doc.Document, dir string, o Options) ([]string, error)
}

var (
	mu        sync.RWMutex
	renderers = map[string]Renderer{}
)

// Register makes r available by its name, replacing any renderer of that
// name.
func Register(r Renderer) {
	mu.Lock()
	defer mu.Unlock()
	renderers[r.Name()] = r
}

// Lookup returns the renderer registered under name.
func Lookup(name string) (Renderer, bool) {
	mu.RLock()
	defer mu.RUnlock()
	r, ok := renderers[name]
	return r, ok
}

// Names returns the registered formats' names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(renderers))
	for n := range renderers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
