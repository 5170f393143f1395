//go:build unix

package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// minPipeBuffer is the smallest capacity of a pipe on any Unix (POSIX PIPE_BUF, one page
// on Linux even under pipe-user-pages limits).
const minPipeBuffer = 4096

// textBusyTries bounds the starts of a program that exec finds busy for writing (ETXTBSY):
// 10 tries, 45 ms of back-off between them at most.
const textBusyTries = 10

// textBusyWait waits between those tries (a variable for the test that frees the file).
var textBusyWait = time.Sleep

func run(ctx context.Context, s Spec) (Result, error) {
	res := Result{ExitCode: -1}
	if err := ctx.Err(); err != nil {
		res.TimedOut = true
		return res, fmt.Errorf("not started: %w", err)
	}

	var files []*os.File // every pipe end the parent holds, closed on return
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	pipe := func(parentReads bool) (parent, child *os.File, err error) {
		parent, child, err = childPipe(parentReads)
		if err == nil {
			files = append(files, parent, child)
		}
		return parent, child, err
	}
	outR, outW, err := pipe(true)
	if err != nil {
		return res, &StartError{Path: s.Path, Err: err}
	}
	errR, errW, err := pipe(true)
	if err != nil {
		return res, &StartError{Path: s.Path, Err: err}
	}
	var inW, inR *os.File
	if s.Stdin != nil {
		if inW, inR, err = pipe(false); err != nil {
			return res, &StartError{Path: s.Path, Err: err}
		}
	}

	// A small input (the usual case) goes into the empty pipe before the child starts:
	// a pipe holds at least one page, so this write never blocks, and no writer goroutine
	// is needed. A larger input is written concurrently with the child's run.
	var early []byte
	if inW != nil {
		early = s.Stdin[:min(len(s.Stdin), minPipeBuffer)]
		if _, err := inW.Write(early); err != nil {
			return res, &StartError{Path: s.Path, Err: err}
		}
		if len(early) == len(s.Stdin) {
			inW.Close()
		}
	}

	// exec.Command, not CommandContext: the context is watched by the escalation below
	// (context.AfterFunc, no goroutine unless ctx ends first) rather than by a goroutine of
	// os/exec per run, and the pipes are this package's own, so os/exec's WaitDelay has no
	// copying goroutine to bound.
	var cmd *exec.Cmd
	for try := 0; ; try++ {
		cmd = exec.Command(s.Path, s.Args...)
		cmd.Dir = s.Dir
		cmd.Env = s.Env
		if inR != nil {
			cmd.Stdin = inR
		}
		cmd.Stdout = outW
		cmd.Stderr = errW
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err := cmd.Start()
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ETXTBSY) || try == textBusyTries-1 || ctx.Err() != nil {
			return res, &StartError{Path: s.Path, Err: err}
		}
		// A script written a moment ago: a process forked (by this one or another) while
		// the writer's descriptor was open holds it until that child execs, and exec of
		// the file fails with ETXTBSY meanwhile (golang/go#22315). A guard that did not
		// start would decide nothing; it is tried again, a bounded number of times.
		textBusyWait(time.Duration(try+1) * time.Millisecond)
	}
	pid := cmd.Process.Pid
	// The child has its own copies now; keep only the parent's ends open.
	outW.Close()
	errW.Close()
	if inR != nil {
		inR.Close()
	}

	var stdout, stderr capture
	stdout.max, stderr.max = s.MaxOutput, s.MaxOutput
	readDone := make(chan struct{}, 2)
	go func() { stdout.readFrom(outR); readDone <- struct{}{} }()
	go func() { stderr.readFrom(errR); readDone <- struct{}{} }()

	writerDone := make(chan struct{})
	if rest := s.Stdin[min(len(s.Stdin), len(early)):]; inW != nil && len(rest) > 0 {
		go func() {
			defer close(writerDone)
			// EPIPE (the child exited or closed stdin without reading it all) is not an
			// error: the child decides what it reads.
			inW.Write(rest) //nolint:errcheck
			inW.Close()
		}()
	} else {
		close(writerDone)
	}

	// Escalation: when ctx is done before the leader is waited for, the group is
	// interrupted (SIGTERM), and killed Grace later, the leader too should it have moved to
	// another group (the backstop os/exec's WaitDelay gives). context.AfterFunc starts no
	// goroutine unless ctx ends first.
	var (
		mu          sync.Mutex
		killer      *time.Timer
		finished    bool
		interrupted bool
	)
	stopEscalation := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if finished {
			return
		}
		interrupted = true
		signalGroup(pid, syscall.SIGTERM) //nolint:errcheck // the group may be gone already
		killer = time.AfterFunc(s.Grace, func() {
			mu.Lock()
			defer mu.Unlock()
			if !finished {
				signalGroup(pid, syscall.SIGKILL) //nolint:errcheck
				cmd.Process.Kill()                //nolint:errcheck
			}
		})
	})

	werr := cmd.Wait()
	stopEscalation()
	mu.Lock()
	finished = true
	if killer != nil {
		killer.Stop()
	}
	timedOut := interrupted
	mu.Unlock()
	// Whatever is left of the group (background jobs, a grandchild holding stdout) goes
	// now. The group id cannot be reused while any member is alive.
	signalGroup(pid, syscall.SIGKILL) //nolint:errcheck

	// Pipes still held by a process that left the group are closed after the grace period.
	awaitReaders(readDone, 2, s.Grace, outR, errR)
	if inW != nil {
		inW.Close() // unblocks a writer stuck on a pipe nobody reads
	}
	<-writerDone

	res.Stdout, res.StdoutTruncated = stdout.buf, stdout.truncated
	res.Stderr, res.StderrTruncated = stderr.buf, stderr.truncated
	if st := cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signaled = true
			res.Signal = ws.Signal()
		} else {
			res.ExitCode = st.ExitCode()
		}
	} else if werr != nil {
		return res, fmt.Errorf("wait %s: %w", s.Path, werr)
	}
	if timedOut {
		res.TimedOut = true
		return res, fmt.Errorf("stopped: %w", ctx.Err())
	}
	return res, nil
}

// awaitReaders waits for n readers to report on done; after grace it closes files to
// unblock the rest.
func awaitReaders(done <-chan struct{}, n int, grace time.Duration, files ...*os.File) {
	t := time.NewTimer(grace)
	defer t.Stop()
	for ; n > 0; n-- {
		select {
		case <-done:
		case <-t.C:
			for _, f := range files {
				f.Close()
			}
			<-done
		}
	}
}

// signalGroup sends sig to every process of the group led by pid.
func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}

// capture keeps the first max bytes read and discards the rest.
type capture struct {
	buf       []byte
	max       int
	truncated bool
}

func (c *capture) readFrom(f *os.File) {
	var b [16 << 10]byte
	for {
		n, err := f.Read(b[:])
		if n > 0 {
			room := c.max - len(c.buf)
			if n > room {
				n = room
				c.truncated = true
			}
			c.buf = append(c.buf, b[:n]...)
		}
		if err != nil {
			return
		}
	}
}
