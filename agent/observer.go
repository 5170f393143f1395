package agent

import (
	"context"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// Event is one moment with what is known about it. Fields a moment does not use are zero.
type Event struct {
	// Moment is the hook event this moment is: one of SessionStart, SessionEnd,
	// UserPromptSubmit, UserPromptExpansion, PreSend, PostReceive, MessageDisplay,
	// PermissionRequest, FileChange, CommandExecute, Stop, PostStopValidation, Notification,
	// PreCompact, PostCompact, Error, TaskCreated, TaskCompleted, SubagentStart,
	// SubagentStop, PostToolBatch, StopFailure (DESIGN.md section 8). The tool moments
	// PreToolUse/PostToolUse are not reported: they belong to tool middleware.
	Moment hook.Event
	// Info identifies the session and sub-agent; TranscriptPath is empty.
	Info tool.Session

	Source, Reason   string // SessionStart, SessionEnd
	Prompt           string // UserPromptSubmit
	Message          string // Notification; PostReceive, Stop, SubagentStop: the model's text
	NotificationType string // Notification: idle_prompt, permission_prompt
	Trigger          string // PreCompact, PostCompact
	Error            string // Error
	StopActive       bool   // Stop, SubagentStop: continuing because of an earlier block
	Call             *tool.Call
	FilePath         string // FileChange
	Command          string // CommandExecute, UserPromptExpansion: the command's name, without the slash
	Arguments        string // CommandExecute, UserPromptExpansion
	// ExpansionType and CommandSource are UserPromptExpansion's expansion_type
	// ("slash_command") and command_source ("projectSettings", "userSettings"); its Prompt
	// is the prompt as typed ("/greet world"), as Claude Code 2.1.332 sends it.
	ExpansionType, CommandSource string
	// TurnID and MessageID identify, on MessageDisplay, the user turn and the model
	// message whose text (Message) is shown.
	TurnID, MessageID string
	Task              *Task  // TaskCreated, TaskCompleted
	ErrorDetails      string // StopFailure: the model error's message
	Skill             string // SkillInvoked: the skill's name
	// Batch is, on PostToolBatch, every call of the model's reply with the result text the
	// model will read (Claude Code's tool_calls[].tool_response).
	Batch []BatchCall
}

// BatchCall is one call of a PostToolBatch: the call and the result the model reads.
type BatchCall struct {
	Call    tool.Call
	Result  string
	IsError bool
}

// Verdict is an Observer's answer. Its zero value lets things go on.
type Verdict struct {
	// Block rejects a prompt (UserPromptSubmit), refuses a task (TaskCreated,
	// TaskCompleted) or a permission (PermissionRequest), makes the agent continue (Stop,
	// SubagentStop), or marks a validation failure (PostStopValidation). It is ignored on
	// moments that cannot block.
	Block bool
	// Reason is the reason of a block, for the model (or the user, for a prompt); on
	// PostStopValidation, the failure output.
	Reason string
	// Permission decides a PermissionRequest (Deny also when Block).
	Permission hook.Permission
	// Context is shown to the model as a <hook-notification> in the system area of the next
	// request.
	Context string
	// Display, on MessageDisplay, is the text shown to the user instead of the model's
	// message ("" shows the message); the conversation keeps the model's text (Claude
	// Code's displayContent).
	Display string
	// StopAgent ends the turn at once (Claude Code's "continue": false); StopReason says why.
	StopAgent  bool
	StopReason string
}

// Observer is told of each moment and may answer. Observe is called synchronously on the
// loop's goroutine (or a sub-agent's), one moment at a time per Session; it may be called
// concurrently by parallel sub-agents. It must not keep ev.
type Observer interface {
	Observe(ctx context.Context, ev *Event) Verdict
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(ctx context.Context, ev *Event) Verdict

// Observe calls f(ctx, ev).
func (f ObserverFunc) Observe(ctx context.Context, ev *Event) Verdict { return f(ctx, ev) }

type nopObserver struct{}

func (nopObserver) Observe(context.Context, *Event) Verdict { return Verdict{} }

type (
	permissionKey struct{}
	notifyKey     struct{}
)

type permissionHint struct {
	p      hook.Permission
	reason string
}

// WithPermission returns a context that carries a middleware's permission decision about the
// call to the Session's permission check (DESIGN.md section 7: PreToolUse runs before the
// permission check, which decides on the rewritten input). Allow skips asking; Ask forces
// asking (a non-interactive session denies, with reason verbatim); neither loosens a
// static deny rule.
func WithPermission(ctx context.Context, p hook.Permission, reason string) context.Context {
	return context.WithValue(ctx, permissionKey{}, permissionHint{p, reason})
}

func permissionFrom(ctx context.Context) permissionHint {
	h, _ := ctx.Value(permissionKey{}).(permissionHint)
	return h
}

// Notify adds text for the model to the next request's system area, as a
// <hook-notification>, from inside a tool call (ctx is the call's context). Outside a tool
// call it does nothing.
func Notify(ctx context.Context, text string) {
	if f, ok := ctx.Value(notifyKey{}).(func(string)); ok && text != "" {
		f(text)
	}
}
