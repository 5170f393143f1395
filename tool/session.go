package tool

import "context"

// Session identifies the session (and sub-agent) a tool call belongs to: the agent puts it
// in the context of every tool call (WithSession), and hook middleware copies it into each
// hook input (Claude Code's session_id, transcript_path, cwd, permission_mode, agent_id,
// agent_type).
type Session struct {
	ID             string // the session id
	TranscriptPath string // the transcript or session log, "" when there is none
	Cwd            string // the workspace root
	PermissionMode string // "default", "acceptEdits", "plan", "bypassPermissions", …
	AgentID        string // set inside a sub-agent
	AgentType      string // the sub-agent's type, e.g. "Explore"
}

type sessionKey struct{}

// WithSession returns a context carrying s.
func WithSession(ctx context.Context, s Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionFrom returns the Session put in ctx by WithSession, the zero Session if none.
func SessionFrom(ctx context.Context) Session {
	s, _ := ctx.Value(sessionKey{}).(Session)
	return s
}
