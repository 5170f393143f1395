package state

import (
	"context"
	"strings"
)

// Split is a Store that keeps the workspace records (WorkspaceKey) in Records and every
// other session's state in Sessions (Records nil: everything in Sessions). `hookcore
// serve` keeps its sessions in memory and the records in its state directory (a Dir),
// where they outlive a restart of the server (red team round 66: a change made between
// two sessions was compared by no one once serve had restarted), and where the hook
// command's processes find them too.
type Split struct {
	Sessions Store
	Records  Store
}

// store returns the Store that holds key.
func (s *Split) store(key string) Store {
	if s.Records != nil && strings.HasPrefix(key, workspacePrefix) {
		return s.Records
	}
	return s.Sessions
}

// Update implements Store.
func (s *Split) Update(ctx context.Context, session string, fn func(s *Session)) error {
	return s.store(session).Update(ctx, session, fn)
}

// Holds implements Holder: the answer of the Store that keeps session, true when that
// one cannot tell.
func (s *Split) Holds(session string) bool {
	if h, ok := s.store(session).(Holder); ok {
		return h.Holds(session)
	}
	return true
}

// Forget drops the state of session from the Store that keeps it, when that one can.
func (s *Split) Forget(session string) {
	if f, ok := s.store(session).(interface{ Forget(string) }); ok {
		f.Forget(session)
	}
}
