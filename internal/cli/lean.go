//go:build hookcore_lean

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
)

// This file makes the lean hook binary (cmd/hookcore-hook built with -tags
// hookcore_lean): the hook command alone, without net/http, TLS, the model SDKs and the
// other commands, whose package initialisation and size made a cold start of `hookcore hook
// claude` twice a minimal Go program's (issue 9; docs/decisions.md, "The lean hook binary").
// What it cannot run — http and prompt hooks, mcp_tool and rego policies, --server,
// telemetry — it hands over to the full hookcore (handOver), with the same arguments and
// the same input, so every decision is the full binary's.

// Main runs the hook command: args are "hook", AGENT, the optional EVENT and the hook
// command's flags (parseHookArgs). A command line it does not read as cobra would (help, an
// unknown flag) goes to the full hookcore unchanged, which answers it. It returns the exit
// code, as the full binary's Main.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := newEnv(args, stdin, stdout, stderr)
	if e == nil {
		return ExitFailure
	}
	var cf configFlags
	var hf hookFlags
	pos, ok := []string(nil), len(args) > 0 && args[0] == "hook"
	if ok {
		pos, ok = parseHookArgs(args[1:], hookFlagSpecs(e, &cf, &hf))
	}
	if !ok {
		if e.handedOver {
			fmt.Fprintln(stderr, "hookcore: the hookcore this lean hook binary handed the command line to is a lean one too")
			return ExitFailure
		}
		full, err := fullBinary()
		if err == nil {
			err = execWithInput(full, append([]string{full}, args...), append(os.Environ(), handOverEnv+"=1"), nil)
		}
		fmt.Fprintln(stderr, "hookcore: hookcore-hook reads the hook command's usual flags only, and "+err.Error())
		return ExitFailure
	}
	err := e.runHook(context.Background(), pos, &cf, &hf)
	e.flushTelemetry()
	return exitCode(err, stderr)
}

// leanTypes are the action types the lean binary runs itself.
var leanTypes = []string{config.TypeCommand, config.TypeInject, config.TypeAgent, config.TypeFunc}

// lacks reports what the loaded config needs that the lean binary does not link: the first
// hook, in any layer, whose type is not in leanTypes; telemetry asked for with --otel or the
// OTEL_EXPORTER_OTLP_* variables. Empty: the lean binary decides the event itself.
func (e *env) lacks(l *loaded, cf *configFlags) string {
	for _, f := range l.set.Files {
		for i := range f.Hooks {
			if t := f.Hooks[i].Action.Type; !slices.Contains(leanTypes, t) {
				return fmt.Sprintf("a %s hook (%s)", t, f.Hooks[i].ID)
			}
		}
	}
	if cf.otel != "" {
		return "telemetry (--otel)"
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"} {
		if os.Getenv(k) != "" {
			return "telemetry (" + k + ")"
		}
	}
	return ""
}

// models gives prompt hooks no model: the lean binary hands them over before they compile.
func (e *env) models() func(name string) (executor.Model, error) { return nil }

// forward hands the event over to the full hookcore, which forwards it to the serve.
func (e *env) forward(_ context.Context, p bridge.Protocol, _ string, data []byte, _ *hookFlags, block bool, event hook.Event) bridge.Answer {
	return e.handOver(p, event, data, "--server", block)
}

// handOver runs the full hookcore in this process's place (exec, same process id: an
// agent's timeout still reaches it) with the same arguments, the input data on stdin, and
// handOverEnv set. The full binary is the file `hookcore` beside this executable, else
// `hookcore` on PATH. It returns only when that fails: then the answer is p.Fail, closed on
// gate events unless --on-error allow.
func (e *env) handOver(p bridge.Protocol, event hook.Event, data []byte, need string, block bool) bridge.Answer {
	if e.handedOver {
		return p.Fail(event, "the config needs "+need+", and the hookcore this lean hook binary handed the event to is a lean one too", block)
	}
	full, err := fullBinary()
	if err != nil {
		return p.Fail(event, "the config needs "+need+", which hookcore-hook does not run, and "+err.Error(), block)
	}
	if err := execWithInput(full, append([]string{full}, e.args...), append(os.Environ(), handOverEnv+"=1"), data); err != nil {
		return p.Fail(event, "the config needs "+need+", which hookcore-hook does not run, and starting "+full+" failed: "+err.Error(), block)
	}
	return p.Fail(event, "internal error: exec returned", block) // not reached
}

// fullBinary finds the full hookcore: `hookcore` in this executable's directory (after
// symlinks), else on PATH. It is never this executable itself.
func fullBinary() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("this executable's path is unknown: %w", err)
	}
	if s, err := filepath.EvalSymlinks(self); err == nil {
		self = s
	}
	for _, c := range []string{filepath.Join(filepath.Dir(self), "hookcore"), lookPath("hookcore")} {
		if c == "" {
			continue
		}
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 && !sameFile(c, self) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no full hookcore binary was found beside it (%s) or on PATH", filepath.Dir(self))
}

// sameFile reports whether a and b name the same file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// lookPath is exec.LookPath's answer for name, or "".
func lookPath(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// execWithInput replaces this process by path with argv and env, its stdin a file holding
// data (created in the temporary directory and removed before the exec: only the open
// descriptor keeps it); with data nil, this process's stdin. It returns only on failure.
func execWithInput(path string, argv, env []string, data []byte) error {
	if data == nil {
		return syscall.Exec(path, argv, env)
	}
	f, err := os.CreateTemp("", "hookcore-input-*")
	if err != nil {
		return err
	}
	defer f.Close()
	os.Remove(f.Name()) //nolint:errcheck // the open descriptor is what counts
	if _, err := f.Write(data); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	if err := unix.Dup2(int(f.Fd()), 0); err != nil {
		return err
	}
	return syscall.Exec(path, argv, env)
}
