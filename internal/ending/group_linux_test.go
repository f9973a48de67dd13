package ending

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A recorder's group whose only process left is a zombie, the shell's
// child orphaned when the shell was stopped and not yet reaped by the
// process it went to, is gone: stopping it does not wait for that process
// to reap it (init may take seconds, or never). The test process is made
// the subreaper the orphan goes to, and does not reap it until the end:
// the group is then seen gone while the zombie is still in it.
func TestZombieLeavesTheGroupGone(t *testing.T) {
	const prSetChildSubreaper = 36 // prctl(2)
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Skipf("cannot become a subreaper: %v", errno)
	}
	cmd := exec.Command("sh", "-c", "sleep 30 & echo $!; wait")
	cmd.SysProcAttr = GroupAttr()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(child, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(child, &ws, 0, nil) // the zombie, reaped at last
	}()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()

	StopGroups([]*os.Process{cmd.Process}, exited)
	<-exited
	b, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
	if err != nil {
		t.Fatalf("the shell's child is not a zombie waiting to be reaped: %v", err)
	}
	stat := string(b)
	if f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:]); len(f) < 3 || f[0] != "Z" || f[2] != strconv.Itoa(cmd.Process.Pid) {
		t.Fatalf("the shell's child: %s; want a zombie in the group %d", stat, cmd.Process.Pid)
	}
	if err := syscall.Kill(-cmd.Process.Pid, 0); err != nil {
		t.Fatalf("kill(-group, 0): %v; want the zombie to keep the group", err)
	}
	if groupAlive(cmd.Process) {
		t.Error("a group whose one process left is a zombie is taken for alive: stopping it waits for the zombie's reaping, up to Grace")
	}
}
