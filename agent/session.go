package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/tool"
)

// Defaults of Options' zero fields.
const (
	DefaultMaxSteps            = 50      // model requests per user prompt
	DefaultMaxStopBlocks       = 8       // Claude Code's bound on consecutive Stop blocks
	DefaultMaxValidationRounds = 3       // codebot: failing PostStopValidation rounds per turn
	DefaultContextBudget       = 400_000 // characters of conversation before an auto compaction
	DefaultEndGrace            = 5 * time.Second
	DefaultCommandsDir         = ".hookcore/commands"
)

// Permission modes (Claude Code's names).
const (
	ModeDefault           = "default"           // ask; a non-interactive session denies
	ModeAcceptEdits       = "acceptEdits"       // file-changing tools need no approval
	ModeBypassPermissions = "bypassPermissions" // nothing needs approval (deny rules still apply)
)

// Approver asks the user whether a tool call may run. Nil in Options means the session is
// non-interactive: whatever needs asking is denied.
type Approver interface {
	Approve(ctx context.Context, call tool.Call, reason string) (bool, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, call tool.Call, reason string) (bool, error)

// Approve calls f(ctx, call, reason).
func (f ApproverFunc) Approve(ctx context.Context, call tool.Call, reason string) (bool, error) {
	return f(ctx, call, reason)
}

// Options configures a Session. Model is required; every other zero field has a default.
type Options struct {
	Model      Model
	Tools      []Tool
	Middleware []tool.Middleware // the first is outermost
	Observer   Observer          // nil: nobody listens, everything goes on
	System     string            // the system prompt
	// Workspace is the project root: the cwd reported to the Observer, and where user
	// commands (CommandsDir) are looked up. "" is the process's working directory.
	Workspace string
	SessionID string // "" generates one
	// PermissionMode is ModeDefault (""), ModeAcceptEdits or ModeBypassPermissions.
	PermissionMode string
	// Allow and Deny are static permission rules, Claude Code style: "Bash(rm *)",
	// "WriteFile(src/**)", "ReadFile". A deny rule always wins: no Observer or middleware
	// allow loosens it (DESIGN.md section 7). A deny rule matches a Bash line when any of
	// its commands matches, or when the line cannot be analysed (match.If.Match); the allow
	// rules permit a Bash line only when every command it runs is matched by one of them
	// and the line can be analysed (match.AllowedBy), so "Bash(ls *)" does not allow
	// "ls && rm -rf x" (issue 10).
	Allow, Deny []string
	Approver    Approver // nil: non-interactive
	// MaxSteps bounds the model requests per user prompt; 0 means DefaultMaxSteps.
	MaxSteps int
	// MaxStopBlocks bounds consecutive Stop/SubagentStop blocks per prompt; 0 means 8.
	MaxStopBlocks int
	// MaxValidationRounds bounds the PostStopValidation failures fed back per prompt; 0
	// means 3. One more failure ends the turn with a notice.
	MaxValidationRounds int
	// ContextBudget is the conversation size, in characters, past which the Session
	// compacts before the next request (PreCompact trigger auto); 0 means
	// DefaultContextBudget, negative never.
	ContextBudget int
	// CommandsDir holds user slash commands, NAME.md, relative to Workspace; "" means
	// DefaultCommandsDir. Claude Code's places are read before it (see HomeDir).
	CommandsDir string
	// HomeDir, when set, is the user's home: HomeDir/.claude/commands is the first place
	// of slash commands, before Workspace/.claude/commands and CommandsDir (Claude Code
	// 2.1.332 took the user's command over the project's of the same name).
	HomeDir string
	// Tasks adds the TaskCreate and TaskUpdate tools; Subagents adds the Agent tool.
	Tasks, Subagents bool
	// Skills, when not empty, adds the Skill tool, which gives the model a skill's body and
	// reports SkillInvoked (ReadDefinitions reads them from .claude/skills).
	Skills []Skill
	// AgentTypes are the custom sub-agent types the Agent tool's subagent_type names
	// (.claude/agents/NAME.md): their system prompt and tools.
	AgentTypes []AgentType
	// EndGrace bounds SessionEnd after the context was cancelled (a signal); 0 means 5 s.
	EndGrace time.Duration
	// Trace, when set, is told of each step as it happens (model text, tool calls and
	// results, notices), for a live display. It is called on the loop's goroutine.
	Trace func(Step)
}

// StepKind says what a Step shows.
type StepKind string

// The kinds of Step.
const (
	StepText       StepKind = "text"        // the model's text as shown (a MessageDisplay hook's displayContent replaces it)
	StepToolCall   StepKind = "tool_call"   // Call is about to go through the middleware
	StepToolResult StepKind = "tool_result" // Text is what the model gets back
	StepNotice     StepKind = "notice"      // something the Session decided (Text)
	StepHook       StepKind = "hook"        // a harness's hook decision (Text)
)

// Step is one thing that happened, for display.
type Step struct {
	Kind    StepKind
	AgentID string // set inside a sub-agent
	Text    string
	Call    *tool.Call
	IsError bool
}

// Session is one conversation with the model. Its methods must not be called concurrently
// (sub-agents run on the caller's goroutine).
type Session struct {
	opts  Options
	info  tool.Session
	tools map[string]Tool
	specs []ToolSpec
	chain tool.Middleware
	obs   Observer
	allow []*match.If // the allow rules, for match.AllowedBy
	deny  []rule

	messages []Message
	notesMu  sync.Mutex
	notes    []string
	changed  bool          // a file-changing tool succeeded since the last passing validation
	snap     *snapshot     // the workspace after the last call of a tool that is not a FileChanger; nil: take a new one
	calls    *atomic.Int64 // tool-call counter, shared with sub-agents
	agents   *atomic.Int64 // sub-agent counter
	tasks    *taskList
	endOnce  sync.Once
	stopped  string // a StopAgent reason, ends the turn
	// turns and shown count the prompts and the model messages shown (MessageDisplay's
	// turn_id and message_id); turnID is the current prompt's.
	turns, shown int
	turnID       string
}

type rule struct {
	src string
	f   *match.If
}

// ErrMaxSteps is returned (wrapped) when a prompt used up Options.MaxSteps model requests.
var ErrMaxSteps = errors.New("too many model requests for one prompt")

// PromptRejectedError is returned by Prompt when the Observer blocked the prompt
// (UserPromptSubmit); Reason is for the user.
type PromptRejectedError struct{ Reason string }

func (e *PromptRejectedError) Error() string { return "prompt rejected: " + e.Reason }

// New returns a Session. It fires nothing: call Start (or Run). An error names a missing
// model or a static permission rule that does not compile.
func New(opts Options) (*Session, error) {
	if opts.Model == nil {
		return nil, errors.New("agent: no model")
	}
	s := &Session{opts: opts, tools: map[string]Tool{}, obs: opts.Observer, calls: new(atomic.Int64), agents: new(atomic.Int64), tasks: &taskList{}}
	if s.obs == nil {
		s.obs = nopObserver{}
	}
	ws := opts.Workspace
	if ws == "" {
		ws = "."
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return nil, fmt.Errorf("agent: workspace: %w", err)
	}
	s.opts.Workspace = abs
	if s.opts.SessionID == "" {
		s.opts.SessionID = newID()
	}
	if s.opts.PermissionMode == "" {
		s.opts.PermissionMode = ModeDefault
	}
	s.info = tool.Session{ID: s.opts.SessionID, Cwd: abs, PermissionMode: s.opts.PermissionMode}
	tools := append([]Tool(nil), opts.Tools...)
	if opts.Tasks {
		tools = append(tools, taskCreateTool{s.tasks}, taskUpdateTool{s.tasks})
	}
	if opts.Subagents {
		tools = append(tools, subagentTool{})
	}
	if len(opts.Skills) > 0 {
		st := skillTool{skills: map[string]Skill{}}
		for _, sk := range opts.Skills {
			st.skills[sk.Name] = sk
		}
		tools = append(tools, st)
	}
	for _, t := range tools {
		s.tools[t.Name()] = t
		s.specs = append(s.specs, ToolSpec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()})
	}
	s.chain = tool.Chain(opts.Middleware...)
	for _, src := range opts.Allow {
		f, err := match.CompileIf(src)
		if err != nil {
			return nil, fmt.Errorf("agent: permission rule %q: %w", src, err)
		}
		s.allow = append(s.allow, f)
	}
	for _, src := range opts.Deny {
		f, err := match.CompileIf(src)
		if err != nil {
			return nil, fmt.Errorf("agent: permission rule %q: %w", src, err)
		}
		s.deny = append(s.deny, rule{src, f})
	}
	return s, nil
}

func newID() string {
	return fmt.Sprintf("s-%d", time.Now().UnixNano())
}

// ID returns the session id.
func (s *Session) ID() string { return s.info.ID }

// Info returns the session's identity as reported to the Observer.
func (s *Session) Info() tool.Session { return s.info }

// Messages returns a copy of the conversation so far.
func (s *Session) Messages() []Message { return append([]Message(nil), s.messages...) }

func (s *Session) observe(ctx context.Context, ev *Event) Verdict {
	ev.Info = s.info
	v := s.obs.Observe(ctx, ev)
	if v.Context != "" {
		s.note(v.Context)
	}
	return v
}

// Note adds text to the hook notifications of the session's next model request. It is
// safe to call from any goroutine (an asyncRewake hook's output arrives from the Runner's
// background goroutine).
func (s *Session) Note(text string) { s.note(text) }

func (s *Session) note(text string) {
	s.notesMu.Lock()
	s.notes = append(s.notes, text)
	s.notesMu.Unlock()
}

// unnote takes back the last pending notification equal to text (one that goes into the
// conversation another way).
func (s *Session) unnote(text string) {
	s.notesMu.Lock()
	defer s.notesMu.Unlock()
	for i := len(s.notes) - 1; i >= 0; i-- {
		if s.notes[i] == text {
			s.notes = append(s.notes[:i], s.notes[i+1:]...)
			return
		}
	}
}

func (s *Session) trace(st Step) {
	if s.opts.Trace != nil {
		st.AgentID = s.info.AgentID
		s.opts.Trace(st)
	}
}

// Start opens the session: the SessionStart moment with source (startup, resume, clear,
// compact). Its context goes to the first request.
func (s *Session) Start(ctx context.Context, source string) {
	s.observe(ctx, &Event{Moment: hook.SessionStart, Source: source})
}

// End closes the session with the SessionEnd moment, once: later calls do nothing. When ctx
// is already done (a signal), SessionEnd still runs, on a context detached from ctx and
// bounded by Options.EndGrace.
func (s *Session) End(ctx context.Context, reason string) {
	s.endOnce.Do(func() {
		if ctx.Err() != nil {
			grace := s.opts.EndGrace
			if grace <= 0 {
				grace = DefaultEndGrace
			}
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), grace)
			defer cancel()
		}
		s.observe(ctx, &Event{Moment: hook.SessionEnd, Reason: reason})
	})
}

// Run runs a whole non-interactive session: Start("startup"), each prompt in turn, and End on
// every exit path, with the reason "other" after the last prompt, "sigint"/"sigterm" when
// ctx was cancelled by NotifyContext, "error" after a failure. It stops at the first error
// (a rejected prompt included) and returns it; the prompts' final texts go to Trace.
func (s *Session) Run(ctx context.Context, prompts ...string) (err error) {
	s.Start(ctx, "startup")
	defer func() { s.End(ctx, EndReason(ctx, err)) }()
	for _, p := range prompts {
		if _, err = s.Prompt(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// EndReason returns the SessionEnd reason for a session that ended with err under ctx:
// "sigint" or "sigterm" when ctx was cancelled by NotifyContext's signal, "error" for any
// other error but a rejected prompt, else "other" (Claude Code's reason for a
// non-interactive end).
func EndReason(ctx context.Context, err error) string {
	var sig *SignalError
	if errors.As(context.Cause(ctx), &sig) {
		return sig.Reason()
	}
	var rej *PromptRejectedError
	if err != nil && !errors.As(err, &rej) {
		return "error"
	}
	return "other"
}

// Prompt runs one user turn and returns the model's final text. text may be a slash
// command (see command.go): /compact, /clear, or a user command from CommandsDir. A
// prompt the Observer blocks returns a *PromptRejectedError and leaves the conversation
// unchanged.
func (s *Session) Prompt(ctx context.Context, text string) (string, error) {
	if strings.HasPrefix(text, "/") && builtinCommand(text) {
		_, _, err := s.command(ctx, text)
		return "", err
	}
	// UserPromptSubmit gets the prompt as typed, a custom command before its expansion
	// (Claude Code 2.1.332: "/greet world", then UserPromptExpansion; testdata/claude/commands).
	v := s.observe(ctx, &Event{Moment: hook.UserPromptSubmit, Prompt: text})
	if v.Block {
		s.trace(Step{Kind: StepNotice, Text: "prompt rejected: " + v.Reason, IsError: true})
		return "", &PromptRejectedError{Reason: v.Reason}
	}
	if v.StopAgent {
		return "", &PromptRejectedError{Reason: v.StopReason}
	}
	if strings.HasPrefix(text, "/") {
		expanded, _, err := s.command(ctx, text)
		if err != nil {
			return "", err
		}
		text = expanded
	}
	s.messages = append(s.messages, Message{Role: RoleUser, Text: text})
	s.turns++
	s.turnID = fmt.Sprintf("turn_%d", s.turns)
	return s.turn(ctx, false)
}
