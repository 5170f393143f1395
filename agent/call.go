package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/tool"
)

type stopKey struct{}

// StopTurn ends the current turn after the tool call ctx belongs to (Claude Code's
// "continue": false on a tool hook); reason is shown to the user. Outside a tool call it
// does nothing.
func StopTurn(ctx context.Context, reason string) {
	if f, ok := ctx.Value(stopKey{}).(func(string)); ok {
		f(reason)
	}
}

// runTools runs the calls in order and appends one tool message per call.
func (s *Session) runTools(ctx context.Context, calls []tool.Call) {
	for _, c := range calls {
		call := c
		s.trace(Step{Kind: StepToolCall, Call: &call})
		out, err := s.callTool(ctx, c)
		text, isErr := ResultText(out, err)
		s.trace(Step{Kind: StepToolResult, Call: &call, Text: text, IsError: isErr})
		s.messages = append(s.messages, Message{Role: RoleTool, ToolCallID: c.ID, Text: text, IsError: isErr})
	}
}

// ResultText is what the model reads for a tool's output or error: a JSON string output as
// plain text, any other JSON as is; a *tool.RejectedError's reason verbatim; any other error's
// message.
func ResultText(out json.RawMessage, err error) (text string, isError bool) {
	if err != nil {
		var rej *tool.RejectedError
		if errors.As(err, &rej) {
			return rej.Reason, true
		}
		return err.Error(), true
	}
	out = bytes.TrimSpace(out)
	if len(out) > 0 && out[0] == '"' {
		var s string
		if json.Unmarshal(out, &s) == nil {
			return s, false
		}
	}
	return string(out), false
}

// callTool runs one call through the middleware chain, the permission check and the tool.
func (s *Session) callTool(ctx context.Context, c tool.Call) (json.RawMessage, error) {
	tl := s.tools[c.Name]
	ctx = tool.WithSession(ctx, s.info)
	ctx = context.WithValue(ctx, notifyKey{}, s.note)
	ctx = context.WithValue(ctx, stopKey{}, func(reason string) {
		if reason == "" {
			reason = "a hook asked the agent to stop"
		}
		s.stopped = reason
	})
	ctx = context.WithValue(ctx, sessionKey{}, s)
	// One canonical input for hooks, rules and tools (issue 10.4): an input that readers
	// would read differently (duplicate keys, keys differing only in case) is refused before
	// the middleware, the permission rules or the tool see it.
	if err := hook.CheckToolInput(c.Input); errors.Is(err, hook.ErrAmbiguousInput) {
		return nil, &tool.RejectedError{Tool: c.Name, Reason: err.Error(), Err: err}
	}
	ran := c
	final := func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
		ran.Input = input
		if tl == nil {
			return nil, fmt.Errorf("unknown tool %q", c.Name)
		}
		if err := s.permit(ctx, tl, ran); err != nil {
			return nil, err
		}
		return tl.Run(ctx, input)
	}
	fc, isChanger := tl.(FileChanger)
	var before snapshot
	if !isChanger && tl != nil {
		before = s.snapshotBefore()
	}
	out, err := s.chain(ctx, c, final)
	if err == nil && isChanger {
		if p := fc.ChangedFile(ran.Input); p != "" {
			s.changed = true
			s.observe(ctx, &Event{Moment: hook.FileChange, Call: &ran, FilePath: p})
		}
	}
	if !isChanger && tl != nil {
		// A Bash call (or any other tool) that changed a file leaves changes to validate,
		// whether or not it succeeded.

		after, changed := s.workspaceChanged(before)
		s.snap = &after
		if changed {
			s.changed = true
		}
	} else {
		s.snap = nil
	}
	return out, err
}

// permit is the harness's permission check (DESIGN.md section 7), after the middleware:
//
//  1. a static deny rule denies, whatever anyone said;
//  2. a middleware's Allow (WithPermission) allows; its Ask asks (step 5);
//  3. the static allow rules (with permit semantics, match.AllowedBy: every command of a
//     Bash line must be allowed, one that cannot be analysed is not), the permission mode,
//     or a tool that needs no approval allows;
//  4. otherwise PermissionRequest: the Observer's allow or deny decides;
//  5. otherwise the Approver asks the user; without one (non-interactive) the call is
//     denied, with the middleware's reason verbatim when it gave one (Claude Code -p).
func (s *Session) permit(ctx context.Context, tl Tool, call tool.Call) error {
	subj := match.NewSubjectIn("PreToolUse", call.Name, call.Input, s.info.Cwd)
	for _, r := range s.deny {
		if r.f.Match(subj) {
			return &tool.RejectedError{Tool: call.Name, Reason: fmt.Sprintf("permission to use %s is denied by the rule %s", call.Name, r.src)}
		}
	}
	hint := permissionFrom(ctx)
	switch hint.p {
	case hook.Allow:
		return nil
	case hook.Ask:
		return s.askPermission(ctx, call, hint.reason)
	case hook.Deny:
		reason := hint.reason
		if reason == "" {
			reason = fmt.Sprintf("permission to use %s was denied", call.Name)
		}
		return &tool.RejectedError{Tool: call.Name, Reason: reason}
	}
	if len(s.allow) > 0 && match.AllowedBy(subj, s.allow...) {
		return nil
	}
	_, changer := tl.(FileChanger)
	switch {
	case s.opts.PermissionMode == ModeBypassPermissions,
		s.opts.PermissionMode == ModeAcceptEdits && changer,
		!tl.NeedsApproval(call.Input):
		return nil
	}
	return s.askPermission(ctx, call, "")
}

// askPermission fires PermissionRequest and, when nobody decided, asks the Approver.
func (s *Session) askPermission(ctx context.Context, call tool.Call, reason string) error {
	v := s.observe(ctx, &Event{Moment: hook.PermissionRequest, Call: &call})
	switch {
	case v.Block || v.Permission == hook.Deny:
		r := v.Reason
		if r == "" {
			r = fmt.Sprintf("permission to use %s was denied", call.Name)
		}
		return &tool.RejectedError{Tool: call.Name, Reason: r}
	case v.Permission == hook.Allow:
		return nil
	}
	if s.opts.Approver == nil {
		if reason == "" {
			reason = fmt.Sprintf("permission to use %s is required, and nobody can grant it in this non-interactive session", call.Name)
		}
		return &tool.RejectedError{Tool: call.Name, Reason: reason}
	}
	s.observe(ctx, &Event{Moment: hook.Notification, NotificationType: "permission_prompt", Message: fmt.Sprintf("The agent needs your permission to use %s", call.Name)})
	ok, err := s.opts.Approver.Approve(ctx, call, reason)
	if err != nil {
		return &tool.RejectedError{Tool: call.Name, Reason: fmt.Sprintf("permission to use %s could not be asked: %v", call.Name, err), Err: err}
	}
	if !ok {
		return &tool.RejectedError{Tool: call.Name, Reason: fmt.Sprintf("the user denied permission to use %s", call.Name)}
	}
	return nil
}
