package state

import (
	"context"
	"time"
)

// Session is the state of one session. Its zero value is a session that has seen nothing.
type Session struct {
	// Torn is set by Dir.Update when the session's file held something that is no state
	// (a torn write, garbage, more than MaxSessionBytes): the session starts over, and the
	// tripwire, whose baseline was in it, says so instead of taking a new one silently
	// (red team round 58). Not stored.
	Torn bool `json:"-"`
	// Once holds the keys of the once hooks that already ran in this session (see OnceKey).
	Once map[string]bool `json:"once,omitempty"`
	// Stops counts the consecutive Stop-type (Stop, SubagentStop) blocks of the current turn.
	// UserPromptSubmit starts a new turn and resets it; an unblocked stop resets it too.
	Stops int `json:"stops,omitempty"`
	// AgentStops counts the same for each sub-agent, by its agent_id (SubagentStop): Claude
	// Code bounds each agent's Stop blocks apart, and one shared streak let sub-agent blocks
	// spend the main agent's (red team round 42). Reset with Stops.
	AgentStops map[string]int `json:"agent_stops,omitempty"`
	// StopReason is what the main agent's last counted Stop block said (its reason, else its
	// context): Gemini CLI sends it back as the prompt of the BeforeAgent that continues the
	// turn, which is no new turn (red team round 43: the streak never reached the cap, and
	// a blocking Stop guard looped for ever).
	StopReason string `json:"stop_reason,omitempty"`
	// Breakers holds, by hook (see OnceKey), the circuit breaker of every hook that failed
	// in this session: its consecutive failures and, when tripped, until when it is open.
	Breakers map[string]Breaker `json:"breakers,omitempty"`
	// TurnMS is the hook time spent in the current turn, in milliseconds (the per-turn
	// budget); UserPromptSubmit starts a new turn and resets it.
	TurnMS float64 `json:"turn_ms,omitempty"`
	// Skills holds the skills invoked in this session whose frontmatter hooks are active,
	// by SkillKey (Claude Code: a skill's hooks register when it is invoked and stay for the
	// rest of the session).
	Skills map[string]bool `json:"skills,omitempty"`
	// Tripwire is the session's armed tripwire (`tool changed hook_config`, stop 32): set
	// by the first event whose config has the clause, and from then on compared and
	// replaced at every event of the session, whatever the config loaded then says (the
	// change may have removed the rule). nil: not armed.
	Tripwire *Baseline `json:"tripwire,omitempty"`
}

// Baseline is the state of the hook config's files at an armed session's previous event:
// what the next event compares with.
type Baseline struct {
	At        int64  `json:"at"`                    // when it was taken, Unix milliseconds
	Event     string `json:"event,omitempty"`       // the event that took it (its hook_event_name)
	ToolUseID string `json:"tool_use_id,omitempty"` // that event's tool call, if any
	// Paths are the paths the snapshot was taken of (absolute, glob components allowed),
	// and Skip those not walked: the next event takes them again, whatever its own config
	// names (a change may have emptied it).
	Paths []string             `json:"paths"`
	Skip  []string             `json:"skip,omitempty"`
	Files map[string]FileState `json:"files"` // by absolute path; only the files that exist
	// Workspace is the directory whose WorkspaceKey record the session writes: the one its
	// first armed event chose (the agent's project directory, else its cwd), kept for the
	// session's life so that a session whose cwd moves (`cd sub`) leaves its record where
	// it started (red team round 66). "" in a state older than it.
	Workspace string `json:"workspace,omitempty"`
}

// FileState is what a change may change of one file of the hook config: whether it exists
// and as what, its mode, a symbolic link's target, a regular file's size and the SHA-256 of
// its content (hex), or, for a file over the hashing cap, its size, mtime, ctime and inode
// (a link's Size and Sum are those of the regular file it leads to). The zero FileState is
// a file that does not exist.
type FileState struct {
	Type   string `json:"t,omitempty"` // "f" regular file, "d" directory, "l" symbolic link, "o" other; "" none
	Mode   uint32 `json:"m,omitempty"` // fs.FileMode's permission and special bits
	Size   int64  `json:"s,omitempty"`
	Target string `json:"l,omitempty"` // a link's target, as readlink(2) gives it
	// Resolved is, for a link that is a path of the tripwire's set and leads to a
	// directory, that directory with every link resolved: the tree walked under the link.
	Resolved string `json:"r,omitempty"`
	Sum      string `json:"h,omitempty"` // a regular file's SHA-256 under the cap
	// A regular file's mtime and ctime (Unix nanoseconds) and inode: over the cap, what
	// it is compared by (a write sets the ctime, which utimes cannot set back); under it,
	// what lets a later snapshot take Sum unhashed.
	MTime int64  `json:"mt,omitempty"`
	CTime int64  `json:"ct,omitempty"`
	Inode uint64 `json:"i,omitempty"`
	// Partial marks a directory tree whose walk went past the hashing bound (its files
	// past it are compared by stat only, Sum empty); Cut one whose walk stopped at the
	// larger bound: a file of it in one snapshot only is not compared.
	Partial bool `json:"p,omitempty"`
	Cut     bool `json:"c,omitempty"`
}

// Holder is implemented by a Store that can tell, without creating anything, whether it
// holds state for a session: the Runner asks it at an event whose config has no tripwire,
// to find an armed one with no more cost than a stat (Dir) or a map lookup (Memory).
// Holds may answer true for a session whose state is empty.
type Holder interface {
	Holds(session string) bool
}

// workspacePrefix starts every WorkspaceKey: a NUL, which no agent's session id holds.
const workspacePrefix = "\x00workspace\x00"

// WorkspaceKey is the session key under which a Store keeps the record of the workspace
// (project root) root: Tripwire holds the snapshot of the last armed event of a session
// there (at its SessionStart, Stop or SessionEnd), which the next session compares its
// first snapshot with (red team round 65: a process a session left behind wrote after its
// last event). Dir keeps it in a file of its own, "workspace-*.json".
func WorkspaceKey(root string) string { return workspacePrefix + root }

// WorkspaceMaxAge is how long Dir keeps a workspace's record not written since (at least
// its MaxAge): a workspace left for longer starts its next session with no record.
const WorkspaceMaxAge = 90 * 24 * time.Hour

// SkillKey is the key under which an invoked skill is recorded in Session.Skills: the id of
// the agent that invoked it ("" for the main agent) and the skill's name.
func SkillKey(agentID, skill string) string { return agentID + "\x00" + skill }

// empty reports whether s holds nothing to remember.
func (s *Session) empty() bool {
	return s.Stops == 0 && len(s.AgentStops) == 0 && s.StopReason == "" && len(s.Once) == 0 && len(s.Breakers) == 0 && s.TurnMS == 0 && len(s.Skills) == 0 && s.Tripwire == nil
}

// Breaker is one hook's circuit breaker.
type Breaker struct {
	Fails     int   `json:"fails"`                // consecutive errors and timeouts
	OpenUntil int64 `json:"open_until,omitempty"` // Unix milliseconds; 0: closed
}

// Store holds the Session of every session id. It is the one place where a Runner keeps
// state that outlives one event.
//
// Update calls fn with the current state of session (the zero Session when there is none)
// and stores what fn leaves in it, atomically with respect to every other Update of the
// same session, in this process and, for stores that say so (Dir), in other processes: two
// concurrent Updates never lose each other's change. fn may be called at most once, must
// not call the Store itself and must not keep s after it returns. An empty session id is a
// session like any other. A non-nil error means the state could not be read or written;
// fn's change may then be lost, and the caller decides how to degrade (the Runner runs a
// once hook rather than skip it, and logs). Update may be called concurrently.
type Store interface {
	Update(ctx context.Context, session string, fn func(s *Session)) error
}

// UpdateFunc adapts a function to Store.
type UpdateFunc func(ctx context.Context, session string, fn func(s *Session)) error

// Update calls f(ctx, session, fn).
func (f UpdateFunc) Update(ctx context.Context, session string, fn func(s *Session)) error {
	return f(ctx, session, fn)
}

// OnceKey is the key under which a once hook is recorded in Session.Once: its event and
// hook id ("SessionStart\x00greet"). The id is the config's `id` or the generated
// "<Event>#<n>", so a once hook stays spent across a reload that keeps its id.
func OnceKey(event, hookID string) string { return event + "\x00" + hookID }

// Claim is the Update that claims a once hook: it reports whether key had not yet run in
// session, and marks it as run.
func Claim(ctx context.Context, st Store, session, key string) (first bool, err error) {
	err = st.Update(ctx, session, func(s *Session) {
		if s.Once[key] {
			return
		}
		if s.Once == nil {
			s.Once = map[string]bool{}
		}
		s.Once[key] = true
		first = true
	})
	return first, err
}
