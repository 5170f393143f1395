package agent

import "context"

// Moment names a point in the agent's life that the Session reports to its Observer. The
// names are those of hookcore's events (DESIGN.md section 3), so a harness can map them one
// to one; the tool moments PreToolUse/PostToolUse are not here: they belong to middleware.
type Moment string

// The moments a Session reports, in the order of DESIGN.md section 8.
const (
	SessionStart       Moment = "SessionStart"       // Source: startup, clear, compact
	SessionEnd         Moment = "SessionEnd"         // Reason: other, error, clear, sigint, sigterm
	UserPromptSubmit   Moment = "UserPromptSubmit"   // Prompt; a block rejects it
	PreSend            Moment = "PreSend"            // before each model request
	PostReceive        Moment = "PostReceive"        // after each model reply; Message is its text
	PermissionRequest  Moment = "PermissionRequest"  // Call; Permission allow/deny decides
	FileChange         Moment = "FileChange"         // Call, FilePath
	CommandExecute     Moment = "CommandExecute"     // Command, Arguments
	Stop               Moment = "Stop"               // StopActive, Message; a block continues
	PostStopValidation Moment = "PostStopValidation" // a block is a failure; Reason is its output
	Notification       Moment = "Notification"       // NotificationType, Message
	PreCompact         Moment = "PreCompact"         // Trigger: manual or auto
	PostCompact        Moment = "PostCompact"        // Trigger
	Error              Moment = "Error"              // Error
	TaskCreated        Moment = "TaskCreated"        // Call, Task; a block rolls the task back
	TaskCompleted      Moment = "TaskCompleted"      // Call, Task; a block refuses the completion
	SubagentStart      Moment = "SubagentStart"      // Info.AgentID, Info.AgentType
	SubagentStop       Moment = "SubagentStop"       // StopActive, Message; a block continues
	PostToolBatch      Moment = "PostToolBatch"      // Batch; a block ends the loop before the next request
	StopFailure        Moment = "StopFailure"        // Error: "unknown"; ErrorDetails: the model's error
)

// Info identifies the session (and sub-agent) a moment or a tool call belongs to.
type Info struct {
	SessionID      string
	Cwd            string // the workspace root
	PermissionMode string
	AgentID        string // set inside a sub-agent
	AgentType      string
}

// Event is one moment with what is known about it. Fields a moment does not use are zero.
type Event struct {
	Moment Moment
	Info   Info

	Source, Reason   string // SessionStart, SessionEnd
	Prompt           string // UserPromptSubmit
	Message          string // Notification; PostReceive, Stop, SubagentStop: the model's text
	NotificationType string // Notification: idle_prompt, permission_prompt
	Trigger          string // PreCompact, PostCompact
	Error            string // Error
	StopActive       bool   // Stop, SubagentStop: continuing because of an earlier block
	Call             *ToolCall
	FilePath         string // FileChange
	Command          string // CommandExecute: the command's name, without the slash
	Arguments        string // CommandExecute
	Task             *Task  // TaskCreated, TaskCompleted
	ErrorDetails     string // StopFailure: the model error's message
	Skill            string // SkillInvoked: the skill's name
	// Batch is, on PostToolBatch, every call of the model's reply with the result text the
	// model will read (Claude Code's tool_calls[].tool_response).
	Batch []BatchCall
}

// BatchCall is one call of a PostToolBatch: the call and the result the model reads.
type BatchCall struct {
	Call    ToolCall
	Result  string
	IsError bool
}

// Permission is a permission decision.
type Permission int

// Permission decisions; Undecided leaves the decision to the next step.
const (
	Undecided Permission = iota
	Allow
	Ask
	Deny
)

// String returns "", "allow", "ask" or "deny".
func (p Permission) String() string {
	return [...]string{"", "allow", "ask", "deny"}[p]
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
	Permission Permission
	// Context is shown to the model as a <hook-notification> in the system area of the next
	// request.
	Context string
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
	infoKey       struct{}
	permissionKey struct{}
	notifyKey     struct{}
)

// InfoFrom returns the Info of the session whose tool call ctx belongs to; the Session puts
// it in the context of every tool call, so middleware can tag what it reports.
func InfoFrom(ctx context.Context) Info {
	i, _ := ctx.Value(infoKey{}).(Info)
	return i
}

type permissionHint struct {
	p      Permission
	reason string
}

// WithPermission returns a context that carries a middleware's permission decision about the
// call to the Session's permission check (DESIGN.md section 7: PreToolUse runs before the
// permission check, which decides on the rewritten input). Allow skips asking; Ask forces
// asking (a non-interactive session denies, with reason verbatim); neither loosens a
// static deny rule.
func WithPermission(ctx context.Context, p Permission, reason string) context.Context {
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
