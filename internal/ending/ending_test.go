package ending

import (
	"strings"
	"testing"
)

// A temporary folder that cannot be made names where it was to be made,
// and that TMPDIR chose it.
func TestMkdirTempNamesTMPDIR(t *testing.T) {
	t.Setenv("TMPDIR", "/nonexistent-memsym")
	_, err := MkdirTemp("x-")
	if err == nil || !strings.HasPrefix(err.Error(), "cannot make a temporary folder in TMPDIR, /nonexistent-memsym: ") {
		t.Errorf("error %v", err)
	}
}
