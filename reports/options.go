package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Options are what a user chooses of a render: the files' names and the
// LaTeX macros' prefix.
type Options struct {
	// Stem begins every file's name: STEM.md, STEM.pdf, STEM-live.svg,
	// STEM-tikz.tex. "" is DefaultStem.
	Stem string
	// TeXPrefix begins every LaTeX macro's name: \memsymPeakA. It is
	// letters alone; "" is DefaultTeXPrefix.
	TeXPrefix string
}

// The defaults of Options.
const (
	DefaultStem      = "chapter13"
	DefaultTeXPrefix = "memsym"
)

func (o Options) stem() string {
	if o.Stem == "" {
		return DefaultStem
	}
	return o.Stem
}

func (o Options) prefix() string {
	if o.TeXPrefix == "" {
		return DefaultTeXPrefix
	}
	return o.TeXPrefix
}

var (
	stemPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_]*$`)
	prefixPattern = regexp.MustCompile(`^[A-Za-z]+$`)
)

// Check says what is wrong with o, if anything: a stem is letters, digits
// and _ (so that no file name it begins is another's), a prefix letters
// alone (as a LaTeX macro's name is).
func (o Options) Check() error {
	if o.Stem != "" && !stemPattern.MatchString(o.Stem) {
		return fmt.Errorf("--name %s: expected letters, digits and _, beginning with a letter or a digit", o.Stem)
	}
	if o.TeXPrefix != "" && !prefixPattern.MatchString(o.TeXPrefix) {
		return fmt.Errorf("--tex-prefix %s: expected letters alone, as a LaTeX macro's name is", o.TeXPrefix)
	}
	return nil
}

// ownName matches the names of the files renderers write for a stem: the
// chapter in each format and each figure or formula file beside it.
func ownName(stem string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `(\.(md|html|pdf)|-[a-z0-9]+\.(svg|tex))$`)
}

// RemoveStale removes from dir the files an earlier render wrote under o's
// stem that this one, which wrote written, did not, so that none is left
// looking current; it returns their names, sorted. Only files named as a
// renderer names its files and marked as memsym's are removed: a user's
// own files are left alone.
func RemoveStale(dir string, o Options, written []string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, n := range written {
		keep[n] = true
	}
	own := ownName(o.stem())
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if keep[name] || !e.Type().IsRegular() || !own.MatchString(name) {
			continue
		}
		path := filepath.Join(dir, name)
		mine, err := markedOurs(path)
		if err != nil {
			return removed, err
		}
		if !mine {
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, err
		}
		removed = append(removed, name)
	}
	sort.Strings(removed)
	return removed, nil
}

// markedOurs reports whether the file at path carries memsym's mark, as
// every file a renderer writes does: in its first lines, or for a PDF in
// its information dictionary.
func markedOurs(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	if strings.HasSuffix(path, ".pdf") {
		return bytes.Contains(data, []byte("/Producer ("+writtenBy+")")), nil
	}
	if len(data) > 4096 {
		data = data[:4096]
	}
	return bytes.Contains(data, []byte(writtenBy)), nil
}
