package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"memsym/internal/outfile"
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

// ownName matches the names of the files written for a stem: the chapter
// in each format, each figure or formula file beside it, and the page
// explain writes beside them (STEM-page.html).
func ownName(stem string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(stem) + `(\.(md|html|pdf)|-[a-z0-9]+\.(svg|tex)|-page\.html)$`)
}

// RemoveStale removes from dir the files the run before wrote under o's
// stem that this one, which wrote written, did not, so that none is left
// looking current; it returns their names, sorted. It knows them by the
// list each run leaves in dir (ListName: every file it wrote, with its
// SHA-256, as sha256sum writes them), and removes a file only when it is
// still as that run wrote it: a user's own file is left alone, even a copy
// of one of memsym's under a name memsym might use, and so is a file of
// memsym's that the user has since changed, whose name it returns in
// changed, sorted, for the caller to say that it holds the earlier run's
// figures. Then it writes this run's list. Where there is no list (a
// directory memsym never wrote into, or wrote into before it kept one)
// nothing is removed.
func RemoveStale(dir string, o Options, written []string) (removed, changed []string, err error) {
	list := filepath.Join(dir, ListName(o))
	before, err := readList(list)
	if err != nil {
		return nil, nil, err
	}
	keep := map[string]bool{}
	for _, n := range written {
		keep[n] = true
	}
	own := ownName(o.stem())
	for _, name := range slices.Sorted(maps.Keys(before)) {
		if keep[name] || !own.MatchString(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
			continue // gone, or no longer a file of memsym's
		}
		sum, err := digest(path)
		if err != nil {
			return removed, changed, err
		}
		if sum != before[name] {
			changed = append(changed, name) // changed since: the user's now
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, changed, err
		}
		removed = append(removed, name)
	}
	var b strings.Builder
	for _, name := range slices.Sorted(slices.Values(written)) {
		sum, err := digest(filepath.Join(dir, name))
		if err != nil {
			return removed, changed, err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, name)
	}
	return removed, changed, outfile.Write(list, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// ListName is the name of the hidden file in which a run lists the files it
// wrote with their digests: ".STEM.sha256".
func ListName(o Options) string { return "." + o.stem() + ".sha256" }

// readList reads a run's list: each file's SHA-256 by its name. A list
// that is missing is empty; a line it cannot read is left out.
func readList(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if ok && len(sum) == 64 && !strings.ContainsAny(name, `/\`) {
			sums[name] = sum
		}
	}
	return sums, nil
}

// digest returns the SHA-256 of the file at path, in hexadecimal.
func digest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
