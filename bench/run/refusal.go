package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// refusal is what memsym symbolic says of a grid whose operations differ
// between points: the bench checks that the run it times says it.
const refusal = "cannot be interpolated"

// syntheticRefusal times memsym symbolic refusing the synthetic grid of
// syntheticFiles with one operation relabelled halfway through one grid
// point's recording, by turns with the run on the grid as it is: a grid
// refused for one point's mistake, the usual mistake of a user, should
// cost about what reading the grid costs, not many times its time and
// memory.
func (h *harness) syntheticRefusal(ctx context.Context, grid []string, check string) []row {
	measure := fmt.Sprintf("synthetic, %s operations, 3×3 grid in files, one operation relabelled halfway through one grid point's recording: `memsym symbolic`'s refusal against its run on the grid as recorded, wall time", thousands(h.ops))
	const target = "— (for reference)"
	last := grid[len(grid)-1]
	edited := strings.TrimSuffix(last, ".jsonl") + "_relabelled.jsonl"
	defer os.Remove(edited)
	if err := relabelHalfway(last, edited); err != nil {
		return []row{failed(measure, target, nil, err)}
	}
	ok := symbolicFiles(check, grid)
	bad := symbolicFiles(check, append(append([]string(nil), grid[:len(grid)-1]...), edited))
	cmds := []string{fmt.Sprintf("(%s: %s with the label of its operation halfway through made Other…)", edited, last), ok.String(), bad.String()}
	cs, err := h.repeatExpecting(ctx, [][]string{h.argv(ok), h.argv(bad)}, []string{"", refusal})
	if err != nil {
		return []row{failed(measure, target, cmds, err)}
	}
	wall, rss := ratios(cs[1].wall, cs[0].wall), ratios(cs[1].rss, cs[0].rss)
	return []row{{
		measure:  measure,
		target:   target,
		measured: fmt.Sprintf("refusal %s, run %s: %s (%s–%s, run by run)", cs[1].wall.describe(seconds), cs[0].wall.describe(seconds), times(wall.median()), times(wall.min()), times(wall.max())),
		verdict:  "—",
		commands: cmds,
		note: fmt.Sprintf("peak RSS refusal %s, run %s: %s (%s–%s); CPU time refusal %s, run %s; the refusal says %q",
			cs[1].rss.describe(megabytes), cs[0].rss.describe(megabytes), times(rss.median()), times(rss.min()), times(rss.max()),
			cs[1].cpu.describe(seconds), cs[0].cpu.describe(seconds), refusal),
	}}
}

// relabelHalfway copies the recording at src to dst with the label of the
// first operation in its second half made another: `{"op": "Other…`.
func relabelHalfway(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	r, w := bufio.NewReaderSize(in, 1<<20), bufio.NewWriterSize(out, 1<<20)
	var read int64
	done := false
	for {
		line, err := r.ReadSlice('\n')
		read += int64(len(line))
		if !done && read > st.Size()/2 && bytes.HasPrefix(line, []byte(`{"op": "`)) {
			line = bytes.Replace(line, []byte(`{"op": "`), []byte(`{"op": "Other`), 1)
			done = true
		}
		if _, werr := w.Write(line); werr != nil {
			out.Close()
			return werr
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if !done {
		return fmt.Errorf("%s: no operation in its second half to relabel", src)
	}
	return nil
}
