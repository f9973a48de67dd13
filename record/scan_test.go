package record

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const hdr = `{"memsym": 1, "dims": {"B": 2}}` + "\n"

// readErrors lists malformed recordings and the exact error each gives.
var readErrors = []struct {
	name, in, want string
}{
	{"empty file", "", "t.jsonl:1: the recording ends without the header and the result line {\"result\": [...]}"},
	{"bad JSON", hdr + `{"buffer": 1 "bytes": 2}` + "\n", `t.jsonl:2: expected a comma or } after the value of "buffer", found "bytes"`},
	{"not an object", `[1, 2]` + "\n", `t.jsonl:1: expected a record, a JSON object {...}, found an array`},
	{"unknown kind", hdr + `{"tensor": 1}` + "\n", `t.jsonl:2: unknown key "tensor": a record has one of the keys "memsym", "buffer", "view", "op" or "result"`},
	{"no kind", hdr + `{"name": "x"}` + "\n", `t.jsonl:2: a record without a kind: expected one of the keys "memsym", "buffer", "view", "op" or "result"`},
	{"two kinds", hdr + `{"buffer": 1, "op": "x"}` + "\n", `t.jsonl:2: a record with more than one kind ("buffer" and "op"): expected exactly one`},
	{"typo in a key", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"op": "f", "read": [1]}` + "\n", `t.jsonl:3: unknown key "read" in an op: expected "op", "path", "reads", "writes", "launch", "phase" or "meta"`},
	{"key of another kind", hdr + `{"buffer": 1, "bytes": 8, "of": 2}` + "\n", `t.jsonl:2: key "of" does not belong in a buffer: expected "buffer", "dtype", "shape", "bytes", "role", "name", "group" or "meta"`},
	{"duplicate key", hdr + `{"buffer": 1, "bytes": 8, "bytes": 9}` + "\n", `t.jsonl:2: key "bytes" given twice: a record's keys are unique`},
	{"undeclared id", hdr + `{"op": "f", "reads": [4]}` + "\n", `t.jsonl:2: operation 1 reads 4, which is not declared before it`},
	{"undeclared write", hdr + `{"op": "f", "writes": [4]}` + "\n", `t.jsonl:2: operation 1 writes 4, which is not declared before it`},
	{"duplicate id", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"buffer": 1, "bytes": 8}` + "\n", `t.jsonl:3: buffer 1 is declared twice: ids are unique`},
	{"duplicate view id", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"view": 1, "of": 2}` + "\n", `t.jsonl:3: view 1 is declared twice: ids are unique`},
	{"unknown dtype", hdr + `{"buffer": 1, "dtype": "f128", "shape": [2]}` + "\n", `t.jsonl:2: unknown dtype "f128": expected f64, f32, f16, bf16, f8, i64, i32, i16, i8, u8, i4, u4, bool or {"bits": N}`},
	{"dtype of no bits", hdr + `{"buffer": 1, "dtype": {"bits": 0}, "shape": [2]}` + "\n", `t.jsonl:2: "bits" must be an integer from 1 to 1048576, found 0`},
	{"dtype object key", hdr + `{"buffer": 1, "dtype": {"size": 8}, "shape": [2]}` + "\n", `t.jsonl:2: a dtype object has one key, "bits", found "size"`},
	{"negative size", hdr + `{"buffer": 1, "bytes": -8}` + "\n", `t.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found -8`},
	{"negative fraction", hdr + `{"buffer": 1, "bytes": "-3/2"}` + "\n", `t.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found "-3/2"`},
	{"zero denominator", hdr + `{"buffer": 1, "bytes": "3/0"}` + "\n", `t.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found "3/0"`},
	{"fractional bytes number", hdr + `{"buffer": 1, "bytes": 1.5}` + "\n", `t.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found 1.5`},
	{"negative axis", hdr + `{"buffer": 1, "dtype": "f32", "shape": [2, -1]}` + "\n", `t.jsonl:2: "shape" must be an array of non-negative integers, found -1`},
	{"shape of strings", hdr + `{"buffer": 1, "dtype": "f32", "shape": ["x"]}` + "\n", `t.jsonl:2: "shape" must be an array of non-negative integers, found "x"`},
	{"shape not an array", hdr + `{"buffer": 1, "dtype": "f32", "shape": 3}` + "\n", `t.jsonl:2: "shape" must be an array of non-negative integers, found 3`},
	{"no size", hdr + `{"buffer": 1, "name": "x"}` + "\n", `t.jsonl:2: buffer 1 has no size: expected "dtype" and "shape", or "bytes"`},
	{"dtype without shape", hdr + `{"buffer": 1, "dtype": "f32"}` + "\n", `t.jsonl:2: buffer 1 has a "dtype" but no "shape": expected both, or "bytes"`},
	{"both sizes", hdr + `{"buffer": 1, "dtype": "f32", "shape": [2], "bytes": 8}` + "\n", `t.jsonl:2: buffer 1 gives both "bytes" and a dtype or shape: expected "dtype" and "shape", or "bytes"`},
	{"unknown role", hdr + `{"buffer": 1, "bytes": 8, "role": "weight"}` + "\n", `t.jsonl:2: "role" must be "param", "input", "state" or "temp", found "weight"`},
	{"dim of zero", `{"memsym": 1, "dims": {"B": 2, "T": 0}}` + "\n", `t.jsonl:1: dimension T = 0: dimensions are integers of at least 1`},
	{"non-integer dim", `{"memsym": 1, "dims": {"B": 1.5}}` + "\n", `t.jsonl:1: dimension B must be an integer of at least 1, found 1.5`},
	{"string dim", `{"memsym": 1, "dims": {"B": "2"}}` + "\n", `t.jsonl:1: dimension B must be an integer of at least 1, found "2"`},
	{"dim beyond 64 bits", `{"memsym": 1, "dims": {"B": 9223372036854775808}}` + "\n", `t.jsonl:1: dimension B must be an integer of at least 1, found 9223372036854775808, which does not fit in a 64-bit integer`},
	{"dim given twice", `{"memsym": 1, "dims": {"B": 2, "B": 3}}` + "\n", `t.jsonl:1: dimension "B" given twice`},
	{"dim and const", `{"memsym": 1, "dims": {"B": 2}, "consts": {"B": 3}}` + "\n", `t.jsonl:1: "B" is given twice among the dimensions and constants`},
	{"bad dim name", `{"memsym": 1, "dims": {"2B": 2}}` + "\n", `t.jsonl:1: dimension name "2B": expected an ASCII letter followed by ASCII letters, digits or _`},
	{"const not a number", `{"memsym": 1, "dims": {}, "consts": {"D": "64"}}` + "\n", `t.jsonl:1: constant D must be a JSON number, found "64"`},
	{"no dims", `{"memsym": 1}` + "\n", `t.jsonl:1: the header has no "dims": expected {"memsym": 1, "dims": {"B": 2, ...}}, with {} for none`},
	{"version 3", `{"memsym": 3, "dims": {}}` + "\n", `t.jsonl:1: format version 3: this memsym reads versions 1 and 2`},
	{"view of itself", hdr + `{"view": 3, "of": 3}` + "\n", `t.jsonl:2: view 3 is a view of itself: "of" must name a buffer declared before it`},
	{"view of undeclared", hdr + `{"view": 3, "of": 2}` + "\n", `t.jsonl:2: view 3 is of 2, which is not declared before it`},
	{"view without of", hdr + `{"view": 3}` + "\n", `t.jsonl:2: view 3 has no "of": expected the id of the buffer or view it is a view of`},
	{"view with bytes", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"view": 3, "of": 1, "bytes": 8}` + "\n", `t.jsonl:3: key "bytes" does not belong in a view: expected "view", "dtype", "shape", "name", "of" or "meta"`},
	{"read before write", hdr + `{"buffer": 7, "bytes": 8}` + "\n" + `{"op": "f", "writes": []}` + "\n" + `{"op": "Linear.apply/%5", "reads": [7]}` + "\n", "t.jsonl:4: buffer 7 is read by operation 2 (`Linear.apply/%5`) before any operation writes it; a caller-held input is declared with \"role\": \"input\""},
	{"read through a view before write", hdr + `{"buffer": 7, "bytes": 8}` + "\n" + `{"view": 8, "of": 7}` + "\n" + `{"op": "g", "reads": [8]}` + "\n", "t.jsonl:4: buffer 7 is read (through view 8) by operation 1 (`g`) before any operation writes it; a caller-held input is declared with \"role\": \"input\""},
	{"empty label", hdr + `{"op": ""}` + "\n", `t.jsonl:2: an operation without a label: "op" names it, such as "Linear.apply/%5"`},
	{"bad path", hdr + `{"op": "f", "path": "blocks[01].ff"}` + "\n", `t.jsonl:2: path "blocks[01].ff": expected calls separated by dots, each a name without [ ] . or control characters and perhaps an iteration such as [0]`},
	{"launch not a boolean", hdr + `{"op": "f", "launch": 1}` + "\n", `t.jsonl:2: "launch" must be true or false, found 1`},
	{"ids of strings", hdr + `{"op": "f", "reads": ["x"]}` + "\n", `t.jsonl:2: "reads" must be an array of integer ids, found "x"`},
	{"label not a string", hdr + `{"op": 5}` + "\n", `t.jsonl:2: "op" must be a string, found 5`},
	{"result missing", hdr + `{"buffer": 1, "bytes": 8, "role": "input"}` + "\n", "t.jsonl:2: the recording ends without the result line {\"result\": [...]}"},
	{"result not last", hdr + `{"result": []}` + "\n" + `{"buffer": 1, "bytes": 8}` + "\n", `t.jsonl:3: a buffer after the result: the result must be the last line`},
	{"op after the result", hdr + `{"result": []}` + "\n" + `{"op": "f"}` + "\n", `t.jsonl:3: an op after the result: the result must be the last line`},
	{"result undeclared", hdr + `{"result": [3]}` + "\n", `t.jsonl:2: the result names 3, which is not declared`},
	{"result never written", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"result": [1]}` + "\n", `t.jsonl:3: the result names buffer 1, which no operation before it writes (the result is the last line)`},
	{"a log line, quoted whole", "INFO: starting the recorder\n", `t.jsonl:1: expected a record, a JSON object {...}, found "INFO: starting the recorder"`},
	{"result through a view never written", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"view": 2, "of": 1}` + "\n" + `{"result": [2]}` + "\n", `t.jsonl:4: the result names view 2 of buffer 1, which no operation before it writes (the result is the last line)`},
	{"result before its writer", hdr + `{"buffer": 1, "bytes": 8}` + "\n" + `{"result": [1]}` + "\n" + `{"op": "f", "writes": [1]}` + "\n", `t.jsonl:3: the result names buffer 1, which no operation before it writes (the result is the last line)`},
	{"two headers", hdr + hdr, `t.jsonl:2: a second header: a recording has one header, on its first line`},
	{"header not first", `{"buffer": 1, "bytes": 8}` + "\n" + hdr, `t.jsonl:1: a buffer before the header: the first line must be the header {"memsym": 1, "dims": {...}}`},
	{"truncated file", hdr + `{"buffer": 1, "dtype": "f32", "sha`, `t.jsonl:2: the file ends in the middle of a record (cut off?): the line ends inside a string: expected its closing "`},
	{"CRLF line ending inside a string", hdr + `{"buffer": 1, "bytes": 4, "name": "x` + "\r\n" + `{"result": []}` + "\r\n", `t.jsonl:2: the line ends inside a string: expected its closing "`},
	{"a carriage return inside a string", hdr + `{"buffer": 1, "bytes": 4, "name": "x` + "\ry\"}\n", `t.jsonl:2: a control character (byte 0x0d) in a string: expected it escaped, as \u000d`},
	{"truncated after a value", hdr + `{"buffer": 1, "dtype": "f32"`, `t.jsonl:2: the file ends in the middle of a record (cut off?): expected a comma or } after the value of "dtype", found the end of the line`},
	{"cut line inside the file", hdr + `{"buffer": 1, "dtype": "f32"` + "\n" + `{"result": []}` + "\n", `t.jsonl:2: expected a comma or } after the value of "dtype", found the end of the line`},
	// The file's end inside a literal, a character or an escape: cut off,
	// unless the bytes before the end are wrong whatever would follow them.
	{"truncated inside true", hdr + `{"op": "a", "launch": tr`, `t.jsonl:2: the file ends in the middle of a record (cut off?): "launch" must be true or false, found tr`},
	{"truncated inside false", hdr + `{"op": "a", "launch": fals`, `t.jsonl:2: the file ends in the middle of a record (cut off?): "launch" must be true or false, found fals`},
	{"truncated inside null in meta", hdr + `{"result": [], "meta": nul`, `t.jsonl:2: the file ends in the middle of a record (cut off?): expected a JSON value, found nul`},
	{"truncated inside nested arrays", hdr + `{"result": [], "meta": [[1, [fals`, `t.jsonl:2: the file ends in the middle of a record (cut off?): expected a JSON value, found fals`},
	{"truncated inside a character", hdr + "{\"result\": [], \"meta\": \"\xc3", `t.jsonl:2: the file ends in the middle of a record (cut off?): invalid UTF-8 (byte 0xc3) in a string: a recording is UTF-8`},
	{"truncated inside a three-byte character", hdr + "{\"buffer\": 1, \"bytes\": 8, \"name\": \"\xe2\x82", `t.jsonl:2: the file ends in the middle of a record (cut off?): invalid UTF-8 (byte 0xe2) in a string: a recording is UTF-8`},
	{"truncated inside a \\u escape", hdr + `{"result": [], "meta": "\u00`, `t.jsonl:2: the file ends in the middle of a record (cut off?): a \u escape must have four hex digits, found "\\u00"`},
	{"truncated after a backslash", hdr + `{"result": [], "meta": "\`, `t.jsonl:2: the file ends in the middle of a record (cut off?): the line ends inside a string's escape`},
	{"truncated inside a surrogate pair", hdr + `{"result": [], "meta": "\ud83d\ude`, `t.jsonl:2: the file ends in the middle of a record (cut off?): a lone surrogate \ud83d in a string: expected a high surrogate followed by a low one`},
	{"truncated before a low surrogate", hdr + `{"result": [], "meta": "\ud83d`, `t.jsonl:2: the file ends in the middle of a record (cut off?): a lone surrogate \ud83d in a string: expected a high surrogate followed by a low one`},
	{"truncated inside a fraction", hdr + `{"buffer": 1, "bytes": "3/`, `t.jsonl:2: the file ends in the middle of a record (cut off?): the line ends inside a string: expected its closing "`},
	{"truncated inside a byte order mark", "\xef\xbb", `t.jsonl:1: the file ends in the middle of a record (cut off?): expected a record, a JSON object {...}, found "\xef\xbb"`},
	{"a wrong literal", hdr + `{"op": "a", "launch": trux}` + "\n", `t.jsonl:2: "launch" must be true or false, found trux`},
	{"a wrong literal at the file's end", hdr + `{"op": "a", "launch": trux`, `t.jsonl:2: "launch" must be true or false, found trux`},
	{"null cut short for a boolean", hdr + `{"op": "a", "launch": nul`, `t.jsonl:2: "launch" must be true or false, found nul`},
	{"a literal where a key goes, at the file's end", hdr + `{"op": "a", tr`, `t.jsonl:2: expected a key in double quotes, found tr`},
	{"a character's first byte, then ASCII", hdr + "{\"result\": [], \"meta\": \"\xc3A\"}\n", `t.jsonl:2: invalid UTF-8 (byte 0xc3) in a string: a recording is UTF-8`},
	{"a character's first byte, then ASCII, at the file's end", hdr + "{\"result\": [], \"meta\": \"\xc3A", `t.jsonl:2: invalid UTF-8 (byte 0xc3) in a string: a recording is UTF-8`},
	{"a bad \\u escape at the file's end", hdr + `{"result": [], "meta": "\u00g`, `t.jsonl:2: a \u escape must have four hex digits, found "\\u00g"`},
	{"a lone surrogate at the file's end", hdr + `{"result": [], "meta": "\ud83dx`, `t.jsonl:2: a lone surrogate \ud83d in a string: expected a high surrogate followed by a low one`},
	{"not a low surrogate at the file's end", hdr + `{"result": [], "meta": "\ud83d\ue0`, `t.jsonl:2: a lone surrogate \ud83d in a string: expected a high surrogate followed by a low one`},
	{"a cut escape inside the file", hdr + `{"result": [], "meta": "\u00` + "\n" + `{"result": []}` + "\n", `t.jsonl:2: a \u escape must have four hex digits, found "\\u00"`},
	{"invalid UTF-8", hdr + "{\"buffer\": 1, \"bytes\": 8, \"name\": \"a\xffb\"}\n", `t.jsonl:2: invalid UTF-8 (byte 0xff) in a string: a recording is UTF-8`},
	{"invalid UTF-8 outside strings", hdr + "{\"buffer\": 1, \xff}\n", `t.jsonl:2: expected a key in double quotes, found "\xff"`},
	{"lone surrogate", hdr + `{"buffer": 1, "bytes": 8, "name": "\ud800x"}` + "\n", `t.jsonl:2: a lone surrogate \ud800 in a string: expected a high surrogate followed by a low one`},
	{"bad escape", hdr + `{"buffer": 1, "bytes": 8, "name": "\q"}` + "\n", `t.jsonl:2: an unknown escape "\\q" in a string: expected one of \" \\ \/ \b \f \n \r \t \uXXXX`},
	{"control character", hdr + "{\"buffer\": 1, \"bytes\": 8, \"name\": \"a\tb\"}\n", `t.jsonl:2: a control character (byte 0x09) in a string: expected it escaped, as \u0009`},
	{"NaN", hdr + `{"buffer": 1, "bytes": NaN}` + "\n", `t.jsonl:2: "bytes" must be a non-negative integer, or a string holding one or a fraction such as "3/2", found NaN`},
	{"NaN in meta", hdr + `{"buffer": 1, "bytes": 8, "meta": [NaN]}` + "\n", `t.jsonl:2: expected a JSON value, found NaN`},
	{"trailing garbage", hdr + `{"buffer": 1, "bytes": 8} x` + "\n", `t.jsonl:2: expected the end of the line after the record's closing }, found x`},
	{"two objects on a line", hdr + `{"buffer": 1, "bytes": 8}{"result": [1]}` + "\n", `t.jsonl:2: expected the end of the line after the record's closing }, found an object`},
	{"leading zero", hdr + `{"buffer": 01, "bytes": 8}` + "\n", `t.jsonl:2: expected a number without leading zeros, found 01`},
	{"id beyond 64 bits", hdr + `{"buffer": -9223372036854775809, "bytes": 8}` + "\n", `t.jsonl:2: "buffer" must be an integer id, found -9223372036854775809, which does not fit in a 64-bit integer`},
	{"deep meta", hdr + `{"buffer": 1, "bytes": 8, "meta": ` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "}\n", `t.jsonl:2: values nested more than 512 deep`},
}

func TestReadErrors(t *testing.T) {
	for _, tc := range readErrors {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Read(strings.NewReader(tc.in), "t.jsonl")
			if err == nil {
				t.Fatalf("read without error: %+v", rec)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *SyntaxError", err)
			}
		})
	}
}

// TestCountOpsCutOff: CountOps, which parses the lines that do not start
// as an operation's, a buffer's or a view's, says of a file cut off within
// such a last line what Scan says.
func TestCountOpsCutOff(t *testing.T) {
	for _, tc := range readErrors {
		last := tc.in[strings.LastIndexByte(tc.in, '\n')+1:]
		if !strings.Contains(tc.want, "(cut off?)") || strings.HasPrefix(last, string(opStart)) || strings.HasPrefix(last, string(bufferStart)) {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewScanner(strings.NewReader(tc.in), "t.jsonl").CountOps()
			if err == nil || err.Error() != tc.want {
				t.Errorf("error\n got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// fileNames are the names of recordings as a message shows them: as they
// are, or quoted when they would break the message's line, drive the
// terminal or hide text.
var fileNames = []struct{ name, shown string }{
	{"r.jsonl", "r.jsonl"},
	{"runs/a b ü.jsonl", "runs/a b ü.jsonl"},
	{"<stdin>", "<stdin>"},
	{`a "quoted" name.jsonl`, `a "quoted" name.jsonl`},
	{"recorder(B=16,T=256)", "recorder(B=16,T=256)"},
	{"bad\nname\x1b[31m ü.jsonl", `"bad\nname\x1b[31m ü.jsonl"`},
	{"tab\there.jsonl", `"tab\there.jsonl"`},
	{"cr\r.jsonl", `"cr\r.jsonl"`},
	{"del\x7f.jsonl", `"del\x7f.jsonl"`},
	{"c1\u009b31m.jsonl", `"c1\u009b31m.jsonl"`},
	{"rtl\u202eldo.jsonl", `"rtl\u202eldo.jsonl"`},
	{"sep\u2028.jsonl", `"sep\u2028.jsonl"`},
	{"latin1-\xfc.jsonl", `"latin1-\xfc.jsonl"`},
}

// TestFileNameShown: the "file:line: " of a recording's error shows the
// file's name quoted when it holds a control, hidden or invalid character,
// and as it is otherwise.
func TestFileNameShown(t *testing.T) {
	for _, tc := range fileNames {
		t.Run(tc.shown, func(t *testing.T) {
			if got := ShowFile(tc.name); got != tc.shown {
				t.Errorf("ShowFile(%q) = %s, want %s", tc.name, got, tc.shown)
			}
			_, err := Read(strings.NewReader(hdr+`{"op": "a", "launch": trux}`+"\n"), tc.name)
			want := tc.shown + `:2: "launch" must be true or false, found trux`
			if err == nil || err.Error() != want {
				t.Errorf("Read: error\n got %v\nwant %s", err, want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) || se.File != tc.name {
				t.Errorf("Read: the error's File is not the name as given: %#v", err)
			}
			_, err = Validate(strings.NewReader(hdr+`{"result": [1]}`+"\n"), tc.name)
			if want := tc.shown + ":2: the result names 1, which is not declared"; err == nil || err.Error() != want {
				t.Errorf("Validate: error\n got %v\nwant %s", err, want)
			}
			_, err = Read(failing{strings.NewReader(hdr)}, tc.name)
			if want := tc.shown + ":2: disk on fire"; err == nil || err.Error() != want {
				t.Errorf("Read of a failing reader: error\n got %v\nwant %s", err, want)
			}
		})
	}
}

// TestFileNameShownOnDisk: the names of files on disk, in the messages of
// ReadFile, ValidateFile and a File that ends without its result line.
func TestFileNameShownOnDisk(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range fileNames {
		if strings.ContainsAny(tc.name, "/<") {
			continue
		}
		t.Run(tc.shown, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			shown := path
			if tc.shown != tc.name {
				shown = strconv.Quote(path)
			}
			if got := ShowFile(path); got != shown {
				t.Errorf("ShowFile(%q) = %s, want %s", path, got, shown)
			}
			if _, err := ReadFile(path); err == nil || err.Error() != shown+": cannot read the recording: no such file or directory" {
				t.Errorf("ReadFile of no file: %v", err)
			}
			if err := os.WriteFile(path, []byte(hdr+`{"result": [], "meta": "\u00g0"}`+"\n"), 0o644); err != nil {
				t.Skip(err) // a file system that refuses the name
			}
			want := shown + `:2: a \u escape must have four hex digits, found "\\u00g0"`
			if _, err := ValidateFile(path); err == nil || err.Error() != want {
				t.Errorf("ValidateFile: error\n got %v\nwant %s", err, want)
			}
			if err := os.WriteFile(path, []byte(hdr), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for f.Scan() {
			}
			if want := shown + `:1: the recording ends without the result line {"result": [...]}`; f.Err() == nil || f.Err().Error() != want {
				t.Errorf("File: error\n got %v\nwant %s", f.Err(), want)
			}
		})
	}
}
