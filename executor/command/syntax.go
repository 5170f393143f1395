package command

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"time"

	"github.com/hookcore/hookcore/internal/proc"
)

// syntaxCheckTimeout bounds the `sh -n` run that confirms a syntax error.
const syntaxCheckTimeout = 10 * time.Second

// syntaxFault reports whether a shell-form command that exited 2 did so because the shell
// could not parse it, and returns the shell's message (issue 10.7). POSIX shells exit 2 on
// a syntax error, which hook protocols read as a block, so a typo in a guard's command
// would block every call. The check runs only when stderr mentions a syntax error, and the
// shell itself decides: `sh -n -c SCRIPT` (read, do not execute) must fail too, so a hook
// that prints "syntax error" and exits 2 on purpose still blocks. A command that does not
// parse never ran a single command of its own.
func syntaxFault(ctx context.Context, spec proc.Spec, stderr []byte) (string, bool) {
	if !bytes.Contains(bytes.ToLower(stderr), []byte("syntax error")) || len(spec.Args) != 2 || spec.Args[0] != "-c" {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syntaxCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, spec.Path, "-n", "-c", spec.Args[1])
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	var out bytes.Buffer
	cmd.Stderr = &out
	if err := cmd.Run(); err == nil || ctx.Err() != nil {
		return "", false
	}
	msg := strings.TrimSpace(out.String())
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg, true
}
