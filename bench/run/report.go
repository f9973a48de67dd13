package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// row is one line of the table, with the commands that measured it and a
// note for what the table has no room for.
type row struct {
	measure  string
	target   string
	measured string
	verdict  string // "met", "missed", "skipped" or "failed"
	commands []string
	note     string
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// failed is the row of a measure that could not be taken.
func failed(measure, target string, commands []string, err error) row {
	return row{measure: measure, target: target, measured: "—", verdict: "failed", commands: commands, note: err.Error()}
}

// report writes the machine, the table in Markdown, the notes and the
// commands, with the scratch directory written $TMP.
func report(h *harness, rows []row, loadBefore, loadAfter string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Machine\n\n%s", machine(h))
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s before, %s after\n", loadBefore, loadAfter)
	fmt.Fprintf(&b, "- runs of each measure: %d; the synthetic program at %s operations on the 3×3 grid, %s on the 3^4 grid\n\n", h.runs, thousands(h.ops), thousands(h.ops4))
	b.WriteString("## Results\n\n| measure | target | measured | verdict |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(r.measure), cell(r.target), cell(r.measured), cell(r.verdict))
	}
	var notes []string
	for _, r := range rows {
		if r.note != "" {
			notes = append(notes, fmt.Sprintf("- %s: %s", r.measure, h.shown(r.note)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, "\n## Notes\n\n%s\n", strings.Join(notes, "\n"))
	}
	b.WriteString("\n## Commands\n\n")
	seen := map[string]bool{}
	for _, r := range rows {
		for _, c := range r.commands {
			if c = h.shown(c); !seen[c] {
				seen[c] = true
				fmt.Fprintf(&b, "    %s\n", c)
			}
		}
	}
	return b.String()
}

// shown writes the built binary as memsym and the scratch directory as $TMP.
func (h *harness) shown(s string) string {
	if h.scanonly != "" {
		s = strings.ReplaceAll(s, h.scanonly, "bench/scanonly")
	}
	if h.memsym != "" {
		s = strings.ReplaceAll(s, h.memsym, "memsym")
	}
	if h.tmp != "" {
		s = strings.ReplaceAll(s, h.tmp, "$TMP")
	}
	return s
}

// cell makes s safe inside a Markdown table's cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// machine describes the machine: its CPUs, memory, kernel and Go.
func machine(h *harness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- CPUs (nproc): %d, %s\n", runtime.NumCPU(), cpuModel())
	if kb, err := strconv.ParseInt(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 10, 64); err == nil {
		fmt.Fprintf(&b, "- memory: %.1f GiB\n", float64(kb)/(1<<20))
	}
	if rel, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		fmt.Fprintf(&b, "- kernel: Linux %s\n", strings.TrimSpace(string(rel)))
	}
	out, err := exec.CommandContext(context.Background(), h.goCmd, "version").Output()
	if err == nil {
		fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(string(out)))
	}
	return b.String()
}

// cpuModel returns the first CPU's model name, clock and cache as
// /proc/cpuinfo gives them.
func cpuModel() string {
	m := procField("/proc/cpuinfo", "model name")
	if m == "" {
		return "model unknown"
	}
	if mhz := procField("/proc/cpuinfo", "cpu MHz"); mhz != "" {
		m += " at " + mhz + " MHz"
	}
	if c := procField("/proc/cpuinfo", "cache size"); c != "" {
		m += ", cache " + c
	}
	return m
}

// procField returns the value of the first line "key : value" of a /proc
// file, or "".
func procField(path, key string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}
