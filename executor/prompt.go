package executor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

// DefaultPromptTimeout is a prompt hook's timeout when Prompt.Timeout is zero (30 s, Claude
// Code's default for prompt hooks).
const DefaultPromptTimeout = 30 * time.Second

// Model is the one call the LLM judge needs from a language model: a system prompt and a user
// prompt in, the reply's text out (DESIGN.md section 2: the executors declare the small
// interface they need; package model and the reference agent implement it). Complete is
// called concurrently by parallel hooks, so implementations must be safe for concurrent
// use; it must return soon after ctx is done. An error means the model could not answer
// (no key, unreachable, rate-limited), never a verdict.
type Model interface {
	Complete(ctx context.Context, system, prompt string) (string, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, system, prompt string) (string, error)

// Complete calls f(ctx, system, prompt).
func (f ModelFunc) Complete(ctx context.Context, system, prompt string) (string, error) {
	return f(ctx, system, prompt)
}

// JudgeSystemPrompt is the system prompt of every prompt hook: it asks for the verdict shape
// the executor reads.
const JudgeSystemPrompt = `You are a hook of an AI coding agent. You judge one event of the agent (a tool call it is about to make, a prompt it received, a reply it wants to stop with) against the rule the user gives you, and nothing else.
Reply with exactly one JSON object and no other text:
{"ok": true} when the event complies with the rule, or
{"ok": false, "reason": "..."} when it does not, where reason tells the agent in one or two sentences what is wrong and what to do instead.`

// Prompt is the LLM judge (DESIGN.md section 6, "prompt"; codebot's promptExec, Claude
// Code's prompt hooks). It is plain data: set the fields and call Execute. A Prompt is safe
// for concurrent use when its Model is.
type Prompt struct {
	// HookID names the hook in errors and logs.
	HookID string
	// Prompt is the template: $ARGUMENTS becomes the event input JSON and context
	// variables ($FILE_PATH, $TOOL_ARGS.x, ...) their plain values; without $ARGUMENTS the
	// input JSON is appended after a blank line.
	Prompt string
	// Model answers; nil is an error wrapping hook.ErrNotStarted at run time.
	Model Model
	// Timeout bounds the model call; 0 means DefaultPromptTimeout.
	Timeout time.Duration
	// Logger receives a warning for a reply that holds no verdict; nil discards.
	Logger *slog.Logger
}

// Execute asks the model once, with JudgeSystemPrompt and the expanded template, and reads
// the reply with the verdict rule (parseVerdict): {"ok": false, "reason": R} blocks with
// reason R; {"ok": true} lets the action through; a reply without a verdict lets it through
// too, is logged as a warning, and is kept in Decision.Output (lenient, as codebot). A model
// error is returned as an error (non-blocking unless on_error: block); running past the
// timeout wraps hook.ErrTimeout. An input that cannot be encoded as the JSON of $ARGUMENTS
// is an error wrapping hook.ErrNotStarted and hook.ErrBadInput; the model is not asked. ExitCode is -1; Output is the reply (capped at 16 KiB).
func (x *Prompt) Execute(ctx context.Context, in *hook.Input) (hook.Decision, error) {
	if x.Model == nil {
		return hook.Decision{ExitCode: -1}, fmt.Errorf("prompt hook %q: %w: no model configured", x.HookID, hook.ErrNotStarted)
	}
	return askJudge(ctx, "prompt", x.HookID, x.Prompt, "", x.Timeout, DefaultPromptTimeout, x.Logger, in,
		func(ctx context.Context, prompt string) (string, error) {
			return x.Model.Complete(ctx, JudgeSystemPrompt, prompt)
		})
}

// askJudge is the run shared by the prompt and agent executors: expand the template (plus
// suffix), call ask under the timeout (0: def), and read the answer with the verdict rule.
// kind ("prompt", "agent") names the hook type in errors.
func askJudge(ctx context.Context, kind, id, tmpl, suffix string, timeout, def time.Duration, log *slog.Logger,
	in *hook.Input, ask func(ctx context.Context, prompt string) (string, error)) (hook.Decision, error) {
	none := hook.Decision{ExitCode: -1}
	prompt, err := expandPrompt(tmpl, in)
	if err != nil {
		return none, fmt.Errorf("%s hook %q: %w: %w", kind, id, hook.ErrNotStarted, err)
	}
	prompt += suffix
	if timeout <= 0 {
		timeout = def
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	answer, err := ask(ctx, prompt)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return none, fmt.Errorf("%s hook %q: %w (timeout %v): %v", kind, id, hook.ErrTimeout, timeout, err)
		}
		callee := "model"
		if kind == "agent" {
			callee = "sub-agent"
		}
		return none, fmt.Errorf("%s hook %q: %s: %w", kind, id, callee, err)
	}
	return judge(kind, id, answer, log), nil
}

// judge reads a reply with the verdict rule; an unparsable reply is logged and allowed.
func judge(kind, id, reply string, log *slog.Logger) hook.Decision {
	v, found := parseVerdict(reply)
	if !found {
		if log != nil {
			log.Warn("hook reply holds no {\"ok\": ...} verdict; the action is allowed",
				"type", kind, "hook", id, "reply", hookio.CutUTF8(reply, 500))
		}
		return hook.Decision{ExitCode: -1, Output: capReply(reply)}
	}
	return decide(v, reply)
}
