package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// ValidationReminder is how a failing PostStopValidation's output goes back to the model
// (codebot's ReminderPostStopValidation, seed 000); %s is the output.
const ValidationReminder = "<system-reminder>\nThe PostStopValidation hook failed. Fix the problem based on the following output:\n%s\n</system-reminder>"

// StopContext is how a Stop (or SubagentStop) hook's additional context goes back to the
// model, as Claude Code 2.1.332 words it (testdata/claude/stop-context in the root
// package); the first %s is the event, the second the context.
const StopContext = "<system-reminder>\n%s hook additional context: %s\n</system-reminder>"

// StopFeedback prefixes a Stop (or SubagentStop) block's reason in the user message that
// makes the agent continue (Claude Code's wording).
const StopFeedback = "Stop hook feedback:\n"

// turn runs the model until a natural stop that nobody blocks. sub is set inside a
// sub-agent: its stop moment is SubagentStop, and it has no validation or notification.
func (s *Session) turn(ctx context.Context, sub bool) (string, error) {
	maxSteps := orDefault(s.opts.MaxSteps, DefaultMaxSteps)
	maxStops := orDefault(s.opts.MaxStopBlocks, DefaultMaxStopBlocks)
	maxRounds := orDefault(s.opts.MaxValidationRounds, DefaultMaxValidationRounds)
	stopBlocks, rounds := 0, 0
	s.stopped = ""
	var last string
	for step := 0; ; step++ {
		if step >= maxSteps {
			err := fmt.Errorf("%w: stopped after %d", ErrMaxSteps, maxSteps)
			s.observe(ctx, &Event{Moment: hook.Error, Error: err.Error()})
			return last, err
		}
		if err := ctx.Err(); err != nil {
			return last, err
		}
		if b := s.opts.ContextBudget; b >= 0 && s.size() > orDefault(b, DefaultContextBudget) {
			s.compact(ctx, "auto")
		}
		req := s.request()
		s.observe(ctx, &Event{Moment: hook.PreSend})
		reply, err := s.opts.Model.Chat(ctx, req)
		if err != nil {
			if ctx.Err() == nil {
				s.observe(ctx, &Event{Moment: hook.Error, Error: err.Error()})
				// Claude Code fires StopFailure instead of Stop when the turn ends on an API
				// error; the agent does not classify errors, so the matcher value is "unknown".
				s.observe(ctx, &Event{Moment: hook.StopFailure, Error: "unknown", ErrorDetails: err.Error(), Message: last})
			}
			return last, fmt.Errorf("model: %w", err)
		}
		s.observe(ctx, &Event{Moment: hook.PostReceive, Message: reply.Text})
		for i := range reply.ToolCalls {
			if reply.ToolCalls[i].ID == "" {
				reply.ToolCalls[i].ID = fmt.Sprintf("call_%d", s.calls.Add(1))
			}
			reply.ToolCalls[i].Input = compactInput(reply.ToolCalls[i].Input)
		}
		s.messages = append(s.messages, Message{Role: RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
		if reply.Text != "" {
			shown := reply.Text
			if !sub {
				// Claude Code 2.1.332 -p fires MessageDisplay once per model message with
				// text, before its tool calls run (peer-claude; agent/harness tests), and
				// shows a hook's displayContent instead of the text (testdata/claude/display).
				v := s.observe(ctx, &Event{Moment: hook.MessageDisplay, Message: reply.Text,
					TurnID: s.turnID, MessageID: s.nextMessageID()})
				if v.Display != "" {
					shown = v.Display
				}
			}
			s.trace(Step{Kind: StepText, Text: shown})
			last = reply.Text
		}
		if len(reply.ToolCalls) > 0 {
			s.runTools(ctx, reply.ToolCalls)
			if s.stopped != "" {
				s.trace(Step{Kind: StepNotice, Text: "stopped: " + s.stopped})
				break
			}
			// PostToolBatch: once the whole batch resolved, before the next model call
			// (Claude Code 2.1.332 fired it after the PostToolUse of a batch of two calls,
			// testdata/claude/events in the root package). A block ends the loop.
			if v := s.observe(ctx, &Event{Moment: hook.PostToolBatch, Batch: s.batch(reply.ToolCalls)}); v.Block || v.StopAgent {
				s.trace(Step{Kind: StepNotice, Text: "stopped by PostToolBatch: " + v.Reason + v.StopReason})
				break
			}
			continue
		}
		// A natural stop.
		stop := hook.Stop
		if sub {
			stop = hook.SubagentStop
		}
		v := s.observe(ctx, &Event{Moment: stop, StopActive: stopBlocks > 0, Message: reply.Text})
		if v.StopAgent {
			s.trace(Step{Kind: StepNotice, Text: "stopped: " + v.StopReason})
			break
		}
		if !v.Block && v.Context != "" && stopBlocks < maxStops {
			// Stop context keeps the agent working, and counts like a block (Claude Code
			// 2.1.332 sent it back as a system reminder and went on).
			s.unnote(v.Context)
			stopBlocks++
			s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("%s hook added context (%d/%d), continuing", stop, stopBlocks, maxStops)})
			s.messages = append(s.messages, Message{Role: RoleUser, Text: fmt.Sprintf(StopContext, stop, v.Context)})
			continue
		}
		if !v.Block {
			stopBlocks = 0
		} else {
			if stopBlocks < maxStops {
				stopBlocks++
				s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("%s blocked (%d/%d), continuing: %s", stop, stopBlocks, maxStops, v.Reason)})
				s.messages = append(s.messages, Message{Role: RoleUser, Text: StopFeedback + v.Reason})
				continue
			}
			s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("%s blocked %d times in a row; stopping anyway", stop, maxStops)})
		}
		if sub || !s.changed {
			break
		}
		v = s.observe(ctx, &Event{Moment: hook.PostStopValidation})
		if !v.Block {
			s.changed = false
			break
		}
		if rounds >= maxRounds {
			s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("PostStopValidation failed %d times; stopping with unvalidated changes", rounds+1), IsError: true})
			break
		}
		rounds++
		s.trace(Step{Kind: StepNotice, Text: fmt.Sprintf("PostStopValidation failed (%d/%d), continuing", rounds, maxRounds)})
		s.messages = append(s.messages, Message{Role: RoleUser, Text: fmt.Sprintf(ValidationReminder, strings.TrimRight(v.Reason, "\n"))})
	}
	if !sub {
		s.observe(ctx, &Event{Moment: hook.Notification, NotificationType: "idle_prompt", Message: "The agent finished its turn and is waiting for input"})
	}
	return last, nil
}

// batch pairs calls with the tool results that runTools just appended, in order.
func (s *Session) batch(calls []tool.Call) []BatchCall {
	out := make([]BatchCall, 0, len(calls))
	results := s.messages[max(0, len(s.messages)-len(calls)):]
	for i, c := range calls {
		b := BatchCall{Call: c}
		if i < len(results) && results[i].ToolCallID == c.ID {
			b.Result, b.IsError = results[i].Text, results[i].IsError
		}
		out = append(out, b)
	}
	return out
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// request builds the next model request; pending notifications go into the system area and
// are then cleared.
func (s *Session) request() *Request {
	s.notesMu.Lock()
	notes := s.notes
	s.notes = nil
	s.notesMu.Unlock()
	system := s.opts.System
	for _, n := range notes {
		s.trace(Step{Kind: StepNotice, Text: "hook-notification in this request's system area: " + clip(n, 200)})
		if system != "" {
			system += "\n\n"
		}
		system += "<hook-notification>\n" + n + "\n</hook-notification>"
	}
	return &Request{System: system, Messages: append([]Message(nil), s.messages...), Tools: s.specs}
}

// size is the conversation's size in characters, the measure of ContextBudget.
func (s *Session) size() int {
	n := 0
	for _, m := range s.messages {
		n += len(m.Text)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Input)
		}
	}
	return n
}

// compactInput returns a tool input as compact JSON ("{}" when empty); input that is not
// valid JSON is kept as is, for the tool to reject.
func compactInput(in json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(in)) == 0 {
		return json.RawMessage("{}")
	}
	var b bytes.Buffer
	if json.Compact(&b, in) != nil {
		return in
	}
	return b.Bytes()
}

// nextMessageID returns the id of the next model message shown (MessageDisplay).
func (s *Session) nextMessageID() string {
	s.shown++
	return fmt.Sprintf("msg_%d", s.shown)
}
