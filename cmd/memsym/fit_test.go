package main

import (
	"encoding/json"
	"strings"
	"testing"

	"memsym/doc"
	"memsym/model"
)

// TestFitGolden: the largest T that fits each budget, on the course GPT
// and the Llama 2 block, confirmed by recordings at each answer and one
// past it; go test -update rewrites the goldens.
func TestFitGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
		want   []string
	}{
		{"fit/gpt-course-course.txt",
			[]string{"fit", "--program", "gpt-course", "--const", courseConsts, "--budget", "24GiB,40GiB,80GiB", "--along", "T", "--at", "B=8", "--confirm"},
			[]string{
				"memsym fit: `GPT.apply` in f64, along T at B = 8: ",
				"  24 GiB ",
				"  40 GiB ",
				"  80 GiB ",
				"binds at T + 1: operation 12 (`SelfAttention.apply/%21` in blocks[0].attn)",
				"every smaller T fits too",
			}},
		{"fit/llama2-7b-block.txt",
			[]string{"fit", "--program", "llama2-7b-block", "--budget", "24GiB", "--budget", "40GiB,80GiB,1GiB", "--along", "T", "--at", "B=1", "--confirm"},
			[]string{
				"memsym fit: `DecoderBlock.apply` in f32, along T at B = 1: ",
				"  1 GiB ",
				"binds at T + 1: operation 11 (`Attention.mask` in block.attn)",
				"no T ≥ 1 fits 1 GiB: T = 1 needs 1858290704 bytes (1.73 GiB)",
			}},
		{"fit/llama2-7b-block-si.txt",
			[]string{"fit", "--program", "llama2-7b-block", "--budget", "8e10", "--along", "B", "--at", "T=4096", "--units", "si"},
			[]string{"  80 GB "}},
		{"fit/layers-as-dim.txt",
			[]string{"fit", "--program", "layers-as-dim", "--budget", "1MiB,64MiB", "--along", "L", "--at", "B=64", "--confirm"},
			[]string{"memsym fit: `Deep.apply` in f32, along L at B = 64: ", "  64 MiB        254 "}},
		{"fit/mlp-train-step.txt",
			[]string{"fit", "--program", "mlp-train-step", "--budget", "1.5GiB,1EiB", "--along", "B", "--units", "bytes"},
			[]string{"  1610612736 bytes "}},
	} {
		out := mustRunCLI(t, c.args...)
		golden(t, c.golden, []byte(out))
		checkLinesInOrder(t, out, c.want)
		confirms := strings.Count(out, "\nconfirmed at ")
		if confirms != strings.Count(out, ", as predicted\n") {
			t.Errorf("%v: not every recording is as predicted:\n%s", c.args, out)
		}
	}
}

// TestFitJSON: the JSON answer is the text's, and every number in it reads
// back: the needs at the answer fit, one past it do not.
func TestFitJSON(t *testing.T) {
	out := mustRunCLI(t, "fit", "--program", "gpt-course", "--const", courseConsts, "--budget", "24GiB,80GiB", "--along", "T", "--at", "B=8", "--json", "--confirm")
	golden(t, "fit/gpt-course-course.json", []byte(out))
	var f model.FitJSON
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Budgets) != 2 || f.Along != "T" {
		t.Fatalf("%+v", f)
	}
	for _, b := range f.Budgets {
		budget, err := doc.ParseSize(b.Budget)
		if err != nil {
			t.Fatal(err)
		}
		at, _ := doc.ParseSize(b.At.Needs)
		past, _ := doc.ParseSize(b.Past.Needs)
		if b.Fits != "up_to" || at.Cmp(budget) > 0 || past.Cmp(budget) <= 0 || !b.EverySmallerFits {
			t.Errorf("%+v", b)
		}
		if len(b.Confirmed) != 2 || !b.Confirmed[0].OK || !b.Confirmed[1].OK {
			t.Errorf("confirmed %+v", b.Confirmed)
		}
	}
}

// TestFitRefusals: bad budgets and dimensions are bad usage, said on one
// line.
func TestFitRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--along", "T", "--at", "B=8"}, "memsym: fit needs --budget SIZE, such as --budget 80GiB"},
		{[]string{"--budget", "1GiB"}, "memsym: fit needs --along DIM, the dimension to find the largest value of"},
		{[]string{"--budget", "80G", "--along", "T", "--at", "B=8"}, `memsym: --budget 80G: "G" may mean GB (powers of 1000) or GiB (powers of 1024): say which`},
		{[]string{"--budget", "1GiB", "--along", "T", "--at", "B=8,T=3"}, "memsym: --at B=8,T=3: T is the dimension gone along: give only the others a value"},
		{[]string{"--budget", "1GiB", "--along", "T", "--at", "B=0"}, "memsym: --at B=0: B = 0: dimensions are integers of at least 1"},
	} {
		out, errs, code := runCLI(append([]string{"fit", "--program", "gpt-course"}, c.args...)...)
		if code != 2 || out != "" || errs != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q\n got %s\nwant %s", c.args, code, out, errs, c.want)
		}
	}
}
