// Command scanonly reads recordings with record.Scanner alone, one record
// at a time, and checks nothing that the Scanner does not: the floor of
// parsing them, against which make bench sets memsym's commands. It prints
// the records and bytes it read.
//
//	scanonly FILE...
package main

import (
	"fmt"
	"os"

	"memsym/record"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: scanonly FILE...")
		os.Exit(2)
	}
	var records, size int64
	for _, path := range os.Args[1:] {
		n, bytes, err := scan(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "scanonly: %v\n", err)
			os.Exit(1)
		}
		records += n
		size += bytes
	}
	fmt.Printf("%d records, %d bytes\n", records, size)
}

// scan reads one file and returns its records and bytes.
func scan(path string) (int64, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	s := record.NewScanner(f, path)
	var n int64
	for s.Scan() {
		n++
	}
	return n, st.Size(), s.Err()
}
