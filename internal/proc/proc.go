// Package proc runs a child process for a command hook: in its own process group, bound to a
// context, with its stdin written concurrently and its stdout and stderr captured up to a cap
// (DESIGN.md section 6; STYLE.md "Child processes").
//
// When the context is done the whole group is interrupted (SIGTERM), then killed (SIGKILL)
// after a grace period. When the group leader exits, whatever is left of its group is killed
// too, so no process of the group outlives Run; and a process that escaped the group while
// holding the output pipes open cannot make Run wait more than the grace period.
package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Defaults used when the corresponding Spec field is zero.
const (
	// DefaultMaxOutput is the cap on each of stdout and stderr, in bytes (1 MiB).
	DefaultMaxOutput = 1 << 20
	// DefaultGrace is the time between SIGTERM and SIGKILL, and the longest Run waits for
	// output pipes held open by an escaped process after the child exited.
	DefaultGrace = 2 * time.Second
)

// Spec says what to run. Its zero value is not runnable (Path is required); every other
// zero field has a working default.
type Spec struct {
	// Path is the program to run: best an absolute path; a relative path with a slash is
	// taken relative to Dir, a bare name is looked up in this process's PATH (os/exec).
	Path string
	// Args are the arguments after the program name (argv[1:]).
	Args []string
	// Dir is the working directory; "" is the calling process's.
	Dir string
	// Env is the child's environment as "KEY=value" entries; nil inherits os.Environ().
	// When a key repeats, the last entry wins.
	Env []string
	// Stdin is written to the child's stdin, which is then closed. A child that exits
	// without reading it all is not an error. nil gives the child /dev/null.
	Stdin []byte
	// MaxOutput caps each of stdout and stderr in bytes; 0 means DefaultMaxOutput.
	// Output past the cap is read and discarded, so the child never blocks on a full pipe.
	MaxOutput int
	// Grace is the time between SIGTERM and SIGKILL when the context is done; 0 means
	// DefaultGrace.
	Grace time.Duration
}

// Result is what a finished child did.
type Result struct {
	Stdout, Stderr                   []byte
	StdoutTruncated, StderrTruncated bool
	// ExitCode is the child's exit status, or -1 when it was killed by a signal.
	ExitCode int
	// Signaled is set when the child was killed by a signal; Signal names it.
	Signaled bool
	Signal   os.Signal
	// TimedOut is set when the context was done before the child exited and the group was
	// stopped.
	TimedOut bool
}

// StartError reports that the child could not be started (missing program, no permission,
// missing working directory); no process ran.
type StartError struct {
	Path string
	Err  error
}

func (e *StartError) Error() string { return fmt.Sprintf("start %s: %v", e.Path, e.Err) }
func (e *StartError) Unwrap() error { return e.Err }

// Run starts s.Path in a new process group and waits for it.
//
// It returns a nil error when the child ran to completion, whatever its exit code. When the
// child could not be started it returns a *StartError. When ctx was done before the child
// exited it returns the Result with TimedOut set and an error wrapping ctx.Err() (test with
// errors.Is(err, context.DeadlineExceeded)). Run returns at most about 2×Grace after ctx is
// done, and after it returns no process of the child's group is alive.
func Run(ctx context.Context, s Spec) (Result, error) {
	if s.Path == "" {
		return Result{ExitCode: -1}, &StartError{Path: s.Path, Err: errors.New("empty program path")}
	}
	if s.MaxOutput <= 0 {
		s.MaxOutput = DefaultMaxOutput
	}
	if s.Grace <= 0 {
		s.Grace = DefaultGrace
	}
	return run(ctx, s)
}
