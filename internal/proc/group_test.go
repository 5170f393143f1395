//go:build linux

package proc

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gone reports whether pid has exited (no such process, or a zombie not reaped yet), waiting
// for it at most a few seconds: a SIGKILLed process dies at once, but under load its exit
// may take a moment to show. The wait bounds the test; it is not what the test measures.
func gone(pid int) bool {
	for i := 0; i < 100; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// memberPID runs s and returns the pid it printed first on stdout.
func memberPID(t *testing.T, ctx context.Context, s Spec) (int, Result, error) {
	t.Helper()
	res, err := Run(ctx, s)
	line, _, _ := strings.Cut(string(res.Stdout), "\n")
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if perr != nil {
		t.Fatalf("no pid on stdout: %q (err %v)", res.Stdout, err)
	}
	t.Cleanup(func() { signalGroup(pid, 9) }) //nolint:errcheck
	return pid, res, err
}

// TestRunKillsMemberAfterLeaderExits: the leader exits at once, leaving a group member that
// does not hold the output pipes; the member is killed when Run returns.
func TestRunKillsMemberAfterLeaderExits(t *testing.T) {
	t.Parallel()
	pid, res, err := memberPID(t, context.Background(), sh("sleep 30 >/dev/null 2>&1 </dev/null & echo $!"))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if !gone(pid) {
		t.Errorf("group member %d outlived Run", pid)
	}
}

// TestRunKillsMemberIgnoringSIGTERM: at the timeout, a group member that ignores SIGTERM is
// killed after the grace period, with the leader.
func TestRunKillsMemberIgnoringSIGTERM(t *testing.T) {
	t.Parallel()
	s := sh(`sh -c "trap '' TERM; exec sleep 30" >/dev/null 2>&1 </dev/null & echo $!; sleep 30`)
	s.Grace = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	pid, res, err := memberPID(t, ctx, s)
	if err == nil || !res.TimedOut {
		t.Fatalf("res = %+v, err = %v, want a timeout", res, err)
	}
	if !gone(pid) {
		t.Errorf("group member %d outlived Run", pid)
	}
}
