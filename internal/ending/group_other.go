//go:build unix && !linux

package ending

// groupRunning cannot list a group's processes here: a zombie counts as
// alive (ok is false).
func groupRunning(pgid int) (running, ok bool) { return false, false }
