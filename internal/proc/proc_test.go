//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func sh(script string) Spec { return Spec{Path: "/bin/sh", Args: []string{"-c", script}} }

func TestRun(t *testing.T) {
	t.Parallel()
	big := bytes.Repeat([]byte("x"), 2<<20)
	tests := []struct {
		name string
		spec Spec
		want Result
	}{
		{name: "stdout stderr exit 0", spec: sh("printf out; printf err >&2"),
			want: Result{Stdout: []byte("out"), Stderr: []byte("err")}},
		{name: "exit code", spec: sh("exit 3"), want: Result{ExitCode: 3}},
		{name: "stdin is read", spec: func() Spec { s := sh("cat"); s.Stdin = []byte("hello\n"); return s }(),
			want: Result{Stdout: []byte("hello\n")}},
		{name: "large stdin is read whole", spec: func() Spec { s := sh("cat"); s.Stdin = big[:300000]; return s }(),
			want: Result{Stdout: big[:300000]}},
		{name: "stdin of exactly one pipe page", spec: func() Spec { s := sh("cat"); s.Stdin = big[:minPipeBuffer]; return s }(),
			want: Result{Stdout: big[:minPipeBuffer]}},
		{name: "empty non-nil stdin", spec: func() Spec { s := sh("cat; echo done"); s.Stdin = []byte{}; return s }(),
			want: Result{Stdout: []byte("done\n")}},
		{name: "nil stdin is empty", spec: sh("cat; echo done"), want: Result{Stdout: []byte("done\n")}},
		{name: "unread 2 MB stdin", spec: func() Spec { s := sh("echo 'too big to write' >&2; exit 2"); s.Stdin = big; return s }(),
			want: Result{Stderr: []byte("too big to write\n"), ExitCode: 2}},
		{name: "stdin closed early", spec: func() Spec { s := sh("head -c 3 >/dev/null; exec 0<&-; sleep 0.1; echo ok"); s.Stdin = big; return s }(),
			want: Result{Stdout: []byte("ok\n")}},
		{name: "stdout capped, child not blocked", spec: func() Spec {
			s := sh("head -c 3000000 /dev/zero | tr '\\0' a; echo end >&2")
			s.MaxOutput = 5
			return s
		}(),
			want: Result{Stdout: []byte("aaaaa"), StdoutTruncated: true, Stderr: []byte("end\n")}},
		{name: "stderr capped", spec: func() Spec { s := sh("printf 123456 >&2"); s.MaxOutput = 4; return s }(),
			want: Result{Stderr: []byte("1234"), StderrTruncated: true}},
		{name: "env", spec: func() Spec { s := sh(`printf '%s' "$A"`); s.Env = []string{"A=1", "A=2"}; return s }(),
			want: Result{Stdout: []byte("2")}},
		{name: "signaled", spec: sh("kill -9 $$"),
			want: Result{ExitCode: -1, Signaled: true, Signal: syscall.SIGKILL}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got, err := Run(ctx, tt.spec)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b os.Signal) bool { return a == b })); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := sh("pwd -P")
	s.Dir = dir
	got, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if strings.TrimSpace(string(got.Stdout)) != want {
		t.Errorf("pwd = %q, want %q", got.Stdout, want)
	}
}

func TestRunStartError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spec  Spec
		errIs error
	}{
		{"empty path", Spec{}, nil},
		{"missing program", Spec{Path: "/no/such/program"}, nil},
		{"missing dir", Spec{Path: "/bin/sh", Args: []string{"-c", "true"}, Dir: "/no/such/dir"}, nil},
		{"not executable", Spec{Path: "/etc/passwd"}, nil},
		// Linux caps one argument or environment string at 128 KiB (MAX_ARG_STRLEN): exec
		// fails with E2BIG, which the StartError must keep (the executor tells a hook that
		// could not be given its input from one that could not start).
		{"argument too long", Spec{Path: "/bin/sh", Args: []string{"-c", ": " + strings.Repeat("x", 200000)}}, syscall.E2BIG},
		{"environment string too long", Spec{Path: "/bin/sh", Args: []string{"-c", "true"}, Env: []string{"X=" + strings.Repeat("x", 200000)}}, syscall.E2BIG},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.errIs == syscall.E2BIG && runtime.GOOS != "linux" {
				t.Skip("MAX_ARG_STRLEN is Linux's")
			}
			res, err := Run(context.Background(), tt.spec)
			var se *StartError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *StartError", err)
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.errIs)
			}
			if res.ExitCode != -1 || res.TimedOut {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

func TestRunContextAlreadyDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, sh("touch started"))
	if !errors.Is(err, context.Canceled) || !res.TimedOut {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

// TestRunTimeoutKillsGroup is conformance case 19 at the process level: a background job
// of the hook must not survive the timeout, and Run returns at the timeout (it reports
// TimedOut; it does not wait for the sleep, whose end would be a normal exit 2).
func TestRunTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := sh("(sleep 1; echo late > late.txt) & sleep 30; exit 2")
	s.Dir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, s)
	if !errors.Is(err, context.DeadlineExceeded) || !res.TimedOut {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if !res.Signaled || res.ExitCode != -1 {
		t.Errorf("res = %+v, want signaled", res)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "late.txt")); err == nil {
		t.Error("late.txt exists: the background job survived")
	}
}

func TestRunIgnoresSIGTERMIsKilled(t *testing.T) {
	t.Parallel()
	s := sh("trap '' TERM; sleep 30")
	s.Grace = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, s)
	if !res.TimedOut || err == nil || res.Signal != syscall.SIGKILL {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}

// TestRunBackgroundJobHoldingStdout: the hook exits but leaves a job holding stdout; the
// group is killed as soon as the leader exits, so Run does not wait for it: waiting would
// run into the 20 s context (the job sleeps 30 s) and fail with its error, not pass slowly.
func TestRunBackgroundJobHoldingStdout(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Run(ctx, sh("sleep 30 & echo hi"))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "hi\n" || res.ExitCode != 0 {
		t.Errorf("res = %+v", res)
	}
}

// TestRunEscapedGrandchildHoldingStdout: a grandchild in another session (out of reach of
// the group kill) holds stdout open; Run returns after the grace period anyway.
func TestRunEscapedGrandchildHoldingStdout(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	dir := t.TempDir()
	s := sh("setsid sh -c 'echo $$ > pid; exec sleep 30' & echo hi; sleep 0.2")
	s.Dir = dir
	s.Grace = 300 * time.Millisecond
	// Waiting for the grandchild (30 s) would run into the 20 s context and fail with its
	// error.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "hi\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

func BenchmarkRunTrue(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), Spec{Path: "/bin/true"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunTextBusy: a script still open for writing somewhere (a process forked while its
// writer's descriptor was open holds it until that child execs) makes exec fail with
// ETXTBSY; Run tries again, a bounded number of times, so that a guard written a moment
// ago starts (the differential test of exec form saw "blocked: false" under load at
// stop 29: the hook had not started). Not parallel: it replaces textBusyWait.
func TestRunTextBusy(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("exec of a file open for writing fails with ETXTBSY on Linux")
	}
	script := func(t *testing.T) (string, *os.File) {
		path := filepath.Join(t.TempDir(), "guard.sh")
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if _, err := f.WriteString("#!/bin/sh\necho started\n"); err != nil {
			t.Fatal(err)
		}
		return path, f
	}
	wait := func(t *testing.T, free func(n int)) *int {
		n := 0
		old := textBusyWait
		textBusyWait = func(time.Duration) { n++; free(n) }
		t.Cleanup(func() { textBusyWait = old })
		return &n
	}

	t.Run("freed", func(t *testing.T) {
		path, f := script(t)
		n := wait(t, func(n int) {
			if n == 2 {
				f.Close()
			}
		})
		res, err := Run(context.Background(), Spec{Path: path})
		if err != nil || string(res.Stdout) != "started\n" || res.ExitCode != 0 {
			t.Fatalf("Run = %+v, %v; want the script started once the file was free", res, err)
		}
		if *n != 2 {
			t.Errorf("waited %d times, want 2 (busy twice, then free)", *n)
		}
	})
	t.Run("never freed", func(t *testing.T) {
		path, _ := script(t)
		n := wait(t, func(int) {})
		_, err := Run(context.Background(), Spec{Path: path})
		var se *StartError
		if !errors.As(err, &se) || !errors.Is(err, syscall.ETXTBSY) {
			t.Fatalf("err = %v, want a StartError wrapping ETXTBSY", err)
		}
		if *n != textBusyTries-1 {
			t.Errorf("waited %d times, want %d (the tries are bounded)", *n, textBusyTries-1)
		}
	})
}
