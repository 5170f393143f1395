package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// interpret applies the exit-code protocol documented on Command.Execute to a finished
// run; d already holds ExitCode, Output and Truncated.
func (c *Command) interpret(in *hook.Input, res proc.Result, d hook.Decision, shell bool) (hook.Decision, error) {
	code := res.ExitCode
	stderr := strings.TrimSpace(string(res.Stderr))
	if action, mapped := c.ExitCodes[code]; mapped {
		switch action {
		case ExitOK:
			return c.success(in, res, d)
		case ExitBlock:
			d.Block = true
			d.Reason = firstNonBlank(stderr, strings.TrimSpace(string(res.Stdout)))
			if d.Reason == "" {
				d.Reason = c.silentBlock(code)
			}
			return d, nil
		case ExitInject:
			d.AdditionalContext = firstNonBlank(stderr, strings.TrimSpace(string(res.Stdout)))
			return d, nil
		default:
			return c.failure(in, res, d)
		}
	}
	switch {
	case code == 127 && shell:
		return d, fmt.Errorf("hook %s: %w: exit code 127%s", c.name(), hook.ErrNotStarted, hookio.Excerpt(stderr))
	case c.Agent == "gemini":
		return c.geminiResult(in, res, d)
	case code == 0:
		return c.success(in, res, d)
	case code == 2: // mapped or not: a map that names other codes keeps 2's block (red team round 20)
		d.Block = true
		d.Reason = stderr
		if !c.Codebot {
			d = c.blockEnvelope(in, res, d)
		}
		if d.Reason == "" {
			d.Reason = c.silentBlock(code)
		}
		return d, nil
	default:
		return c.failure(in, res, d)
	}
}

// blockEnvelope reads a valid envelope on the stdout of a Claude-protocol exit 2, as Claude
// Code 2.1.332 does (testdata/claude/exit2-json in the root package): its additional
// context is kept, and its reason (permissionDecisionReason, else reason) is the block's
// reason when stderr is blank. The exit code still decides: the hook blocks whatever the
// envelope says, and nothing else of it is used. Stdout that is not a valid envelope is
// ignored.
func (c *Command) blockEnvelope(in *hook.Input, res proc.Result, d hook.Decision) hook.Decision {
	env, isEnvelope, err := hook.ParseEnvelope(res.Stdout, hookio.Event(in))
	if !isEnvelope || err != nil {
		return d
	}
	d.AdditionalContext = env.AdditionalContext
	if d.Reason == "" {
		d.Reason = env.Reason
	}
	return d
}

// success reads stdout after a successful run.
func (c *Command) success(in *hook.Input, res proc.Result, d hook.Decision) (hook.Decision, error) {
	switch c.Agent {
	case "cursor":
		return c.cursorSuccess(res, d)
	case "copilot":
		return c.copilotSuccess(res, d)
	}
	ev := hookio.Event(in)
	env, isEnvelope, err := hook.ParseEnvelope(res.Stdout, ev)
	if err != nil {
		return d, fmt.Errorf("hook %s: %w", c.name(), err)
	}
	if isEnvelope {
		if c.Claude && env.Permission == hook.Ask && claudeTopLevelAsk(res.Stdout) {
			env.Permission, env.Reason = hook.NoPermission, ""
		}
		return merge(d, env), nil
	}
	if ev == hook.UserPromptSubmit || ev == hook.SessionStart {
		d.AdditionalContext = strings.TrimRight(string(res.Stdout), " \t\r\n")
	}
	return d, nil
}

// failure is a non-blocking error; a valid envelope on stdout is still honoured.
func (c *Command) failure(in *hook.Input, res proc.Result, d hook.Decision) (hook.Decision, error) {
	err := fmt.Errorf("hook %s exited with code %d%s", c.name(), res.ExitCode, hookio.Excerpt(strings.TrimSpace(string(res.Stderr))))
	if env, isEnvelope, perr := hook.ParseEnvelope(res.Stdout, hookio.Event(in)); isEnvelope && perr == nil {
		d = merge(d, env)
	}
	return d, err
}

func (c *Command) silentBlock(code int) string {
	return fmt.Sprintf("hook %s blocked (exit %d) without a reason", c.name(), code)
}

// merge copies what an envelope decided onto d, keeping d's process fields.
func merge(d, env hook.Decision) hook.Decision {
	env.ExitCode, env.Output, env.Truncated = d.ExitCode, d.Output, d.Truncated
	return env
}

func firstNonBlank(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// claudeTopLevelAsk reports whether a valid envelope's Ask comes from a top-level
// "decision": "ask" alone, not from hookSpecificOutput.permissionDecision.
func claudeTopLevelAsk(stdout []byte) bool {
	var v struct {
		Decision any `json:"decision"`
		HSO      struct {
			PermissionDecision any `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(bytes.TrimSpace(stdout), &v) != nil {
		return false
	}
	return v.Decision == "ask" && v.HSO.PermissionDecision != "ask"
}
