package executor

import (
	"fmt"
	"strings"

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
		return d, fmt.Errorf("hook %s: %w: exit code 127%s", c.name(), hook.ErrNotStarted, excerpt(stderr))
	case code == 0:
		return c.success(in, res, d)
	case code == 2 && c.ExitCodes == nil:
		d.Block = true
		d.Reason = stderr
		if d.Reason == "" {
			d.Reason = c.silentBlock(code)
		}
		return d, nil
	default:
		return c.failure(in, res, d)
	}
}

// success reads stdout after a successful run.
func (c *Command) success(in *hook.Input, res proc.Result, d hook.Decision) (hook.Decision, error) {
	ev := event(in)
	env, isEnvelope, err := hook.ParseEnvelope(res.Stdout, ev)
	if err != nil {
		return d, fmt.Errorf("hook %s: %w", c.name(), err)
	}
	if isEnvelope {
		return merge(d, env), nil
	}
	if ev == hook.UserPromptSubmit || ev == hook.SessionStart {
		d.AdditionalContext = strings.TrimRight(string(res.Stdout), " \t\r\n")
	}
	return d, nil
}

// failure is a non-blocking error; a valid envelope on stdout is still honoured.
func (c *Command) failure(in *hook.Input, res proc.Result, d hook.Decision) (hook.Decision, error) {
	err := fmt.Errorf("hook %s exited with code %d%s", c.name(), res.ExitCode, excerpt(strings.TrimSpace(string(res.Stderr))))
	if env, isEnvelope, perr := hook.ParseEnvelope(res.Stdout, event(in)); isEnvelope && perr == nil {
		d = merge(d, env)
	}
	return d, err
}

func (c *Command) silentBlock(code int) string {
	return fmt.Sprintf("hook %s blocked (exit %d) without a reason", c.name(), code)
}

// event returns the canonical event of in, or its name as given when unknown.
func event(in *hook.Input) hook.Event {
	if e, ok := hook.ParseEvent(in.HookEventName); ok {
		return e
	}
	return hook.Event(in.HookEventName)
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

// excerpt returns ": " and the first lines of s (at most 3 lines, 500 bytes), or "" when s
// is empty.
func excerpt(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitN(s, "\n", 4)
	if len(lines) > 3 {
		lines = append(lines[:3], "...")
	}
	s = strings.Join(lines, "\n")
	if len(s) > 500 {
		s = cutUTF8(s, 500) + "..."
	}
	return ": " + s
}
