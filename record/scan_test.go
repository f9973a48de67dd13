package record

import (
	"errors"
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
