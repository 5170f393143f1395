package hookcore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
)

// externalExecutor builds the executors that reach outside the process: http, prompt and
// agent (DESIGN.md section 6). It returns the executor and the target shown to an Approver:
// the URL of an http hook; the prompt, after the model in brackets when the hook names one,
// of a prompt or agent hook.
//
// Problems that depend on the environment rather than on the config — no model resolver, a
// model that cannot be built (missing API key), no agent runner — never fail the load: the
// hook fails when it runs, with an error that says why, and the other hooks run (issue 4: a
// missing key is an error on that hook, not a crash). An allowlist entry that is not a host,
// address or prefix is a config error and fails the load, naming the hook.
func (r *Runner) externalExecutor(h *config.Hook, f *config.File, timeout time.Duration, b *build) (hook.Executor, string, error) {
	a := &h.Action
	if build, ok := r.opts.Executors[a.Type]; ok {
		allow := append(slices.Clone(r.opts.AllowedHosts), a.AllowedHosts...)
		client, err := r.guardedClient(allow)
		if err != nil {
			return nil, "", err
		}
		ex, err := build(context.Background(), h, ExecutorEnv{
			ConfigDir: filepath.Dir(f.Path), ProjectDir: r.projectDir, HTTPClient: client, Logger: r.log,
			AllowedHosts: allow, Timeout: timeout, Set: b.set, ProjectUntrusted: b.untrusted, Shared: b.share,
		})
		if err != nil {
			// A policy that cannot be built is an error of that hook, not of the load: the
			// others run, and with on_error: block this one blocks (fail-closed).
			r.log.Warn("hook cannot be built; it fails when it runs", "hook", h.ID, "source", h.Source(), "err", err)
			return failing(fmt.Errorf("%s hook %q: %w: %v", a.Type, h.ID, hook.ErrNotStarted, err)), a.Type, nil
		}
		return ex, executorTarget(a), nil
	}
	switch a.Type {
	case config.TypeMCPTool:
		return failing(fmt.Errorf("mcp_tool hook %q: %w: this program does not link the mcp_tool executor (package github.com/hookcore/hookcore/mcptool, the official MCP Go SDK; build the hookcore CLI with -tags mcp, or register mcptool.Factory in Options.Executors)", h.ID, hook.ErrNotStarted)), executorTarget(a), nil
	case config.TypeRego:
		return failing(fmt.Errorf("rego hook %q: %w: this program does not link the rego executor (package github.com/hookcore/hookcore/rego; build the hookcore CLI with -tags rego)", h.ID, hook.ErrNotStarted)), executorTarget(a), nil
	case config.TypeHTTP:
		return r.httpExecutor(h, timeout)

	case config.TypePrompt:
		target := promptTarget(a)
		if r.opts.Models == nil {
			return failing(fmt.Errorf("prompt hook %q: %w: no model configured (the program gave the Runner no model resolver)", h.ID, hook.ErrNotStarted)), target, nil
		}
		m, err := r.opts.Models(a.Model)
		if err == nil && m == nil {
			err = fmt.Errorf("the model resolver returned no model for %q", a.Model)
		}
		if err != nil {
			r.log.Warn("prompt hook has no usable model; it fails when it runs", "hook", h.ID, "source", h.Source(), "err", err)
			return failing(fmt.Errorf("prompt hook %q: %w: %v", h.ID, hook.ErrNotStarted, err)), target, nil
		}
		return &executor.Prompt{HookID: h.ID, Prompt: a.Prompt, Model: m, Timeout: timeout, Logger: r.log}, target, nil

	case config.TypeAgent:
		target := promptTarget(a)
		if r.opts.AgentRunner == nil && h.OnError != "block" {
			// Issue 4: skipped at run time with a clear message (`check` reports it at load).
			// A fail-closed guard (on_error: block) gets the executor's error instead, and
			// so blocks.
			return skipping("no agent runner configured: this program runs no sub-agents, so agent hooks are skipped"), target, nil
		}
		return &executor.Agent{HookID: h.ID, Prompt: a.Prompt, Runner: r.opts.AgentRunner, Timeout: timeout, Logger: r.log}, target, nil
	}
	return nil, "", fmt.Errorf("unknown action type %q", a.Type)
}

// promptTarget is what an Approver is shown for a prompt or agent hook.
func promptTarget(a *config.Action) string {
	if a.Model != "" {
		return "[" + a.Model + "] " + a.Prompt
	}
	return a.Prompt
}

// failing is an executor that always fails with err.
func failing(err error) hook.Executor {
	return hook.ExecutorFunc(func(context.Context, *hook.Input) (hook.Decision, error) {
		return hook.Decision{ExitCode: -1}, err
	})
}

// skipping is the executor of a hook that is compiled but never runs: compileHook turns it
// into the reason the hook is skipped once it passed the gates (merge rule 1), so it is never called.
type skipping string

// Execute reports a hook that did not run; the Runner never calls it.
func (s skipping) Execute(context.Context, *hook.Input) (hook.Decision, error) {
	return hook.Decision{ExitCode: -1}, fmt.Errorf("%w: %s", hook.ErrNotStarted, string(s))
}

// executorTarget is what an Approver is shown for a hook of a registered executor type.
func executorTarget(a *config.Action) string {
	switch {
	case a.Policy != "":
		return a.Type + " " + a.Policy
	case a.BundleURL != "":
		return a.Type + " " + a.BundleURL
	case a.Type == config.TypeMCPTool:
		return a.Type + " " + a.Server + " " + a.Tool
	}
	return a.Type
}
