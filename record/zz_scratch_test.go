package record

import ("testing"; "fmt"; "bytes"; "syscall"; "time")

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestScratchSpeed(t *testing.T) {
	rec := courseGPT(t, 2, 16, 64, 2, 5000, 92)
	var buf bytes.Buffer
	rec.WriteTo(&buf)
	data := buf.Bytes()
	for _, name := range []string{"scan", "read", "count"} {
		best := time.Duration(1<<62)
		for rep := 0; rep < 7; rep++ {
			t0 := cpuNow()
			switch name {
			case "scan":
				s := NewScanner(bytes.NewReader(data), "x")
				for s.Scan() {}
			case "read":
				Read(bytes.NewReader(data), "x")
			case "count":
				Count(rec)
			}
			d := cpuNow() - t0
			if d < best { best = d }
		}
		fmt.Printf("%s: %v cpu, %.0f MB/s\n", name, best, float64(len(data))/best.Seconds()/1e6)
	}
}
