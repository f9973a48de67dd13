package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Files are the recordings of one grid written to a directory.
type Files struct {
	Grid  []string // one per grid point, in Grid's order
	Check string   // the check point's
	Bytes int64    // the grid's and the check point's together
}

// All returns the grid's files and then the check point's.
func (f *Files) All() []string { return append(append([]string(nil), f.Grid...), f.Check) }

// WriteFiles writes the recording at every grid point and at the check point
// into dir, each named by its point, such as B1_T64.jsonl.
func (p Program) WriteFiles(dir string) (*Files, error) {
	f := &Files{}
	for _, pt := range p.Grid() {
		path, n, err := p.writeFile(dir, pt)
		if err != nil {
			return nil, err
		}
		f.Grid = append(f.Grid, path)
		f.Bytes += n
	}
	path, n, err := p.writeFile(dir, p.Check())
	if err != nil {
		return nil, err
	}
	f.Check = path
	f.Bytes += n
	return f, nil
}

func (p Program) writeFile(dir string, point []int64) (string, int64, error) {
	var name []string
	for i, v := range p.Vars() {
		name = append(name, fmt.Sprintf("%s%d", v, point[i]))
	}
	path := filepath.Join(dir, strings.Join(name, "_")+".jsonl")
	out, err := os.Create(path)
	if err != nil {
		return "", 0, err
	}
	err = p.Write(out, point)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, err
	}
	return path, st.Size(), nil
}
