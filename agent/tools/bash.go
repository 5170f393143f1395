package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// Bash defaults.
const (
	DefaultBashTimeout = 2 * time.Minute
	MaxBashTimeout     = 10 * time.Minute
	DefaultBashOutput  = 30_000 // bytes of stdout and of stderr kept
)

// Bash runs a shell command (bash, or sh when bash is missing) in Dir, in its own process
// group: on timeout or cancellation the group is interrupted, then killed (internal/proc).
// Input: {"command": "...", "timeout": MS} (Claude Code's Bash; timeout in milliseconds,
// at most 10 minutes). Output: {"stdout", "stderr", "exit_code"}; a non-zero exit, a timeout
// or a signal is an error whose message holds the output, so the model sees it.
type Bash struct {
	Dir       string        // the working directory; "" the process's
	Timeout   time.Duration // default timeout; 0 means DefaultBashTimeout
	MaxOutput int           // cap of stdout and of stderr, bytes; 0 means DefaultBashOutput
	Env       []string      // nil: the process's environment
	// EnvFiles, when set, returns shell files sourced (`. FILE`) before each command, in
	// order: Claude Code sources the CLAUDE_ENV_FILE files its SessionStart hooks wrote
	// before every later Bash command (research note §2.6). A file that fails to source
	// does not stop the command.
	EnvFiles func() []string
}

// Name returns "Bash".
func (*Bash) Name() string { return "Bash" }

// Description describes the tool to the model.
func (*Bash) Description() string {
	return "Run a shell command in the workspace root and return its output. Use for tests, builds, git, listing files."
}

// Schema returns the input schema.
func (*Bash) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"the shell command"},"timeout":{"type":"integer","description":"timeout in milliseconds (max 600000)"},"description":{"type":"string"}},"required":["command"]}`)
}

// NeedsApproval returns true: a command can do anything.
func (*Bash) NeedsApproval(json.RawMessage) bool { return true }

// BashOutput is Bash's output.
type BashOutput struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
}

// Run runs the command.
func (b *Bash) Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Command string `json:"command"`
		Timeout int64  `json:"timeout"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil {
		return nil, fmt.Errorf("bad input: %v", err)
	}
	if strings.TrimSpace(in.Command) == "" {
		return nil, errors.New("empty command")
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = DefaultBashTimeout
	}
	if in.Timeout > 0 {
		timeout = min(time.Duration(in.Timeout)*time.Millisecond, MaxBashTimeout)
	}
	max := b.MaxOutput
	if max <= 0 {
		max = DefaultBashOutput
	}
	shell, err := exec.LookPath("bash")
	if err != nil {
		shell = "/bin/sh"
	}
	script := in.Command
	if b.EnvFiles != nil {
		script = sourcePrelude(b.EnvFiles()) + script
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := proc.Run(cctx, proc.Spec{Path: shell, Args: []string{"-c", script}, Dir: b.Dir, Env: b.Env, MaxOutput: max, Grace: time.Second})
	out := BashOutput{Stdout: capped(res.Stdout, res.StdoutTruncated), Stderr: capped(res.Stderr, res.StderrTruncated), ExitCode: res.ExitCode}
	switch {
	case err != nil && res.TimedOut && ctx.Err() == nil:
		return nil, fmt.Errorf("command timed out after %v%s", timeout, both(out))
	case err != nil:
		return nil, err
	case res.Signaled:
		return nil, fmt.Errorf("command killed by signal %v%s", res.Signal, both(out))
	case res.ExitCode != 0:
		return nil, fmt.Errorf("exit code %d%s", res.ExitCode, both(out))
	}
	return json.Marshal(out)
}

func capped(b []byte, truncated bool) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if truncated {
		s += "\n… [output truncated]"
	}
	return s
}

func both(o BashOutput) string {
	s := strings.TrimRight(o.Stdout, "\n")
	if e := strings.TrimRight(o.Stderr, "\n"); e != "" {
		if s != "" {
			s += "\n"
		}
		s += e
	}
	if s == "" {
		return ""
	}
	return "\n" + s
}

// sourcePrelude returns the shell lines that source files, each quoted, errors ignored.
func sourcePrelude(files []string) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(". '" + strings.ReplaceAll(f, "'", `'\''`) + "' >/dev/null 2>&1 || true\n")
	}
	return b.String()
}
