package agent

import (
	"context"
	"encoding/json"
)

// Tool is a capability the model can call. Run is called with the input after every
// middleware ran (a rewritten input is what runs) and after the permission check; it may be
// called concurrently by sub-agents and must return soon after ctx is done. Its output is any
// JSON value (a JSON string is shown to the model as plain text); an error is shown to the
// model as an error result and reported to the middleware.
type Tool interface {
	Name() string
	Description() string
	// Schema is the JSON Schema object of the input.
	Schema() json.RawMessage
	// NeedsApproval reports whether this call needs the user's permission (unless a rule,
	// the permission mode, a middleware or the Observer decides).
	NeedsApproval(input json.RawMessage) bool
	Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error)
}

// FileChanger is implemented by tools that change a file: after a successful call the
// Session reports a FileChange moment and marks the turn as needing validation
// (PostStopValidation, seed 000).
type FileChanger interface {
	// ChangedFile returns the absolute or workspace-relative path the call changed, or "".
	ChangedFile(input json.RawMessage) string
}
