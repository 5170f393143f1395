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
	"strings"
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
	argless := arglessClaude(args, stdin)
	switch {
	case argless:
		args = []string{"hook", "claude"}
	case len(args) == 0:
		args = []string{"hook"} // no agent: the hook command's usage error, exit 2
	}
	e, code := newEnv(args, stdin, stdout, stderr)
	if e == nil {
		return code
	}
	e.argless = argless
	var cf configFlags
	var hf hookFlags
	pos, ok := []string(nil), len(args) > 0 && args[0] == "hook"
	if ok {
		pos, ok = parseHookArgs(args[1:], hookFlagSpecs(e, &cf, &hf))
	}
	if !ok {
		return e.unparsed(args)
	}
	err := e.runHook(context.Background(), pos, &cf, &hf)
	e.flushTelemetry()
	return exitCode(err, stderr)
}

// leanTypes are the action types the lean binary runs itself.
var leanTypes = []string{config.TypeCommand, config.TypeInject, config.TypeAgent, config.TypeFunc}

// lacks reports what the loaded config needs, for event ("": any), that the lean binary
// does not link: a hook of the event whose type is not in leanTypes (http, mcp_tool, rego: a
// hook of another event never runs on this one, and compiles here without a word, as in the
// full binary); a prompt hook of any event (the full binary resolves its model when it
// compiles, and says on stderr when it cannot); --allow-host (the full binary checks it
// while it compiles an http hook); telemetry asked for with --otel or the
// OTEL_EXPORTER_OTLP_* variables. Empty: the lean binary decides the event itself.
func (e *env) lacks(l *loaded, cf *configFlags, event hook.Event) string {
	for _, f := range l.set.Files {
		for i := range f.Hooks {
			h := &f.Hooks[i]
			t := h.Action.Type
			if t == config.TypePrompt || (!slices.Contains(leanTypes, t) && (event == "" || h.Event == event)) {
				return fmt.Sprintf("a %s hook (%s)", t, h.ID)
			}
		}
	}
	if len(cf.allowHosts) > 0 {
		return "--allow-host"
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

// transportOptions is empty: the lean binary hands --server over to the full hookcore.
type transportOptions struct{}

// forward hands the event over to the full hookcore, which forwards it to the serve.
func (e *env) forward(_ context.Context, p bridge.Protocol, _ string, data []byte, _ *hookFlags, block bool, event hook.Event) bridge.Answer {
	return e.handOver(p, event, data, "--server", block)
}

// unparsed answers a command line parseHookArgs does not read (help, an unknown flag, a
// spelling pflag reads otherwise): the full hookcore answers it, unchanged but for
// --handed-over. When it cannot (none found, or this command line was handed over already),
// the answer fails closed (failArgs).
func (e *env) unparsed(args []string) int {
	if len(args) == 2 && args[0] == "hook" && (args[1] == "--version" || args[1] == "version") {
		args = args[1:2] // the full binary's version: hookcore-hook is a build of the same source
	}
	why := ""
	if handedOver(args) {
		why = "the hookcore this lean hook binary handed the command line to does not read it either"
	} else {
		full, err := fullBinary()
		if err == nil {
			err = execWithInput(full, handOverArgs(full, args), os.Environ(), nil)
		}
		why = "hookcore-hook reads the hook command's usual flags only, and " + err.Error()
	}
	return e.failArgs(args, why)
}

// handedOver reports whether args carry --handed-over before a "--".
func handedOver(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == handedOverFlag || strings.HasPrefix(a, handedOverFlag+"=") {
			return true
		}
	}
	return false
}

// handOverArgs is the argv of the full binary at path for this process's args ("hook",
// then the hook command's words): --handed-over right after "hook", where no "--" can come
// before it. Args that are not the hook command's (--version) go as they are.
func handOverArgs(path string, args []string) []string {
	if len(args) == 0 || args[0] != "hook" {
		return append([]string{path}, args...)
	}
	return append([]string{path, "hook", handedOverFlag}, args[1:]...)
}

// handOver runs the full hookcore in this process's place (exec, same process id: an
// agent's timeout still reaches it) with the same arguments plus --handed-over and the
// input data on stdin. The full binary is fullBinary's. It returns only when that fails:
// then the answer is p.Fail, closed on gate events unless --on-error allow.
func (e *env) handOver(p bridge.Protocol, event hook.Event, data []byte, need string, block bool) bridge.Answer {
	if e.handedOver {
		return p.Fail(event, "the config needs "+need+", and the hookcore this lean hook binary handed the event to is a lean one too", block)
	}
	full, err := fullBinary()
	if err != nil {
		return p.Fail(event, "the config needs "+need+", which hookcore-hook does not run, and "+err.Error(), block)
	}
	if err := execWithInput(full, handOverArgs(full, e.args), os.Environ(), data); err != nil {
		return p.Fail(event, "the config needs "+need+", which hookcore-hook does not run, and starting "+full+" failed: "+err.Error(), block)
	}
	return p.Fail(event, "internal error: exec returned", block) // not reached
}

// fullBinary finds the full hookcore, an absolute path that is not this executable: the
// file `hookcore` beside this executable (symlinks resolved), beside the path it was
// started by (a symlink to it: os.Args[0], looked up in PATH when it has no slash), else
// `hookcore` on PATH. A relative PATH entry never counts (GODEBUG=execerrdot=0 would let
// exec.LookPath return one): the environment of a hook is partly the project's.
func fullBinary() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("this executable's path is unknown: %w", err)
	}
	if s, err := filepath.EvalSymlinks(self); err == nil {
		self = s
	}
	dirs := []string{filepath.Dir(self)}
	if started := os.Args[0]; strings.Contains(started, "/") {
		if abs, err := filepath.Abs(started); err == nil {
			dirs = append(dirs, filepath.Dir(abs))
		}
	} else if p := lookPath(started); p != "" {
		dirs = append(dirs, filepath.Dir(p))
	}
	var candidates []string
	for _, d := range dirs {
		candidates = append(candidates, filepath.Join(d, "hookcore"))
	}
	candidates = append(candidates, lookPath("hookcore"))
	for _, c := range candidates {
		if !filepath.IsAbs(c) {
			continue
		}
		if executableFile(c) && !sameFile(c, self) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no full hookcore binary was found beside it (%s) or on PATH", strings.Join(slices.Compact(dirs), ", "))
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
// data (inputFile: a memory file on Linux, else an unlinked temporary file); with data nil,
// this process's stdin. It returns only on failure.
func execWithInput(path string, argv, env []string, data []byte) error {
	if data == nil {
		return syscall.Exec(path, argv, env)
	}
	f, err := inputFile(data)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Dup2(int(f.Fd()), 0); err != nil {
		return err
	}
	return syscall.Exec(path, argv, env)
}

// tempInput is data in a temporary file, removed at once (only the open descriptor keeps
// it), positioned at its start: in $TMPDIR, else in /tmp when $TMPDIR cannot hold it.
func tempInput(data []byte) (*os.File, error) {
	var firstErr error
	for _, dir := range []string{"", "/tmp"} {
		f, err := os.CreateTemp(dir, "hookcore-input-*")
		if err == nil {
			os.Remove(f.Name()) //nolint:errcheck // the open descriptor is what counts
			if _, err = f.Write(data); err == nil {
				_, err = f.Seek(0, 0)
			}
			if err == nil {
				return f, nil
			}
			f.Close()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}
