package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"memsym/internal/outfile"
)

// writeProfile writes to out the CPU profile by which Go optimizes memsym's
// builds: the profiles of h.runs turns of memsym's usual long runs, merged
// (`go tool pprof -proto`). Each turn is memsym symbolic on the synthetic
// program's 3×3 grid in files with its check point, the same from the
// bundled program (--program), and a chapter (explain); the first two,
// which take nearly all of the time, are what the profile is mostly made
// of, as they are what the performance targets measure. h.memsym must be
// built with the tag memsym_cpuprofile. out is written whole or not at all
// (outfile.Write).
func (h *harness) writeProfile(ctx context.Context, out string) error {
	dir := filepath.Join(h.tmp, "grid3")
	defer os.RemoveAll(dir)
	_, grid, check, err := h.recordGrid3(ctx, dir)
	if err != nil {
		return err
	}
	chapter := filepath.Join(h.tmp, "explain")
	runs := []memsymCmd{
		symbolicFiles(check, grid),
		{"symbolic", "--program", "synthetic", "--const", "N=" + strconv.FormatInt(h.ops, 10)},
		{"explain", "--program", "llama2-7b-block", "-o", chapter},
	}
	var profiles []string
	for r := range h.runs {
		for i, c := range runs {
			os.RemoveAll(chapter)
			p := filepath.Join(h.tmp, fmt.Sprintf("cpu-%d-%d.pprof", r, i))
			h.logf("profile %d of %d: %s", r*len(runs)+i+1, h.runs*len(runs), h.shown(c.abbrev()))
			cmd := exec.CommandContext(ctx, h.memsym, c...)
			cmd.Dir, cmd.Stdout, cmd.Stderr = h.root, io.Discard, h.log
			cmd.Env = append(os.Environ(), "MEMSYM_CPUPROFILE="+p)
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %v", c, err)
			}
			if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
				return fmt.Errorf("%s wrote no profile: memsym must be built with -tags memsym_cpuprofile", c)
			}
			profiles = append(profiles, p)
		}
	}
	var merged, stderr bytes.Buffer
	merge := exec.CommandContext(ctx, h.goCmd, append([]string{"tool", "pprof", "-proto"}, profiles...)...)
	merge.Dir, merge.Stdout, merge.Stderr = h.root, &merged, &stderr
	if err := merge.Run(); err != nil {
		return fmt.Errorf("go tool pprof -proto: %v: %s", err, stderr.String())
	}
	if merged.Len() == 0 {
		return fmt.Errorf("go tool pprof -proto wrote nothing")
	}
	if err := outfile.Write(out, func(w io.Writer) error {
		_, err := w.Write(merged.Bytes())
		return err
	}); err != nil {
		return err
	}
	h.logf("wrote %s (%d bytes, %d profiles merged)", out, merged.Len(), len(profiles))
	return nil
}
