// Package tooltest lets a test use an external tool (pdflatex, z3,
// chromium, a Python with torch) where it is installed: the test skips
// without it on a laptop, and fails without it where MEMSYM_REQUIRE_TOOLS=1
// says every tool must be there, as .ci/run does.
package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// Required reports whether MEMSYM_REQUIRE_TOOLS asks for every tool.
func Required() bool { return os.Getenv("MEMSYM_REQUIRE_TOOLS") == "1" }

// Need returns the path of the named program. When it is not installed the
// test is skipped, or fails when tools are required; why says what the test
// then leaves unchecked.
func Need(t testing.TB, name, why string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	Missing(t, name+" is not installed: "+why)
	return ""
}

// Missing skips the test, or fails it when tools are required, saying what
// is missing.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s (MEMSYM_REQUIRE_TOOLS=1: every tool must be installed; .ci/run installs them)", msg)
		return
	}
	t.Skip(msg)
}
