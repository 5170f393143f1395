package state

import (
	"context"
	"maps"
	"sync"
)

// Memory is a Store in this process's memory: one map, one mutex. The zero value is ready
// to use. Sessions are kept until Forget; a long-running process (hookcore serve) calls it
// on SessionEnd.
type Memory struct {
	mu       sync.Mutex
	sessions map[string]*Session
	scratch  Session // what fn works on for a session with no state yet (see Update)
}

// Update implements Store; it never fails.
func (m *Memory) Update(_ context.Context, session string, fn func(s *Session)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.sessions[session]; s != nil {
		fn(s)
		if s.empty() {
			delete(m.sessions, session) // nothing to remember: keep the map small
		}
		return nil
	}
	// A session with no state yet (every hook run of a Runner without breakers tripped or a
	// budget, most of the time): fn works on the scratch Session, which fn does not keep (the
	// Store contract), and it is copied only when fn left something in it. No allocation
	// for the common read-only Update.
	m.scratch = Session{}
	fn(&m.scratch)
	if m.scratch.empty() {
		return nil
	}
	s := m.scratch
	m.scratch = Session{}
	if m.sessions == nil {
		m.sessions = map[string]*Session{}
	}
	m.sessions[session] = &s
	return nil
}

// Get returns a copy of the state of session (the zero Session when there is none).
func (m *Memory) Get(session string) Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[session]
	if s == nil {
		return Session{}
	}
	return Session{Once: maps.Clone(s.Once), Stops: s.Stops, AgentStops: maps.Clone(s.AgentStops), StopReason: s.StopReason, Breakers: maps.Clone(s.Breakers), TurnMS: s.TurnMS, Skills: maps.Clone(s.Skills), Tripwire: s.Tripwire}
}

// Holds implements Holder.
func (m *Memory) Holds(session string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[session] != nil
}

// Forget drops the state of session.
func (m *Memory) Forget(session string) {
	m.mu.Lock()
	delete(m.sessions, session)
	m.mu.Unlock()
}

// Len returns the number of sessions with state.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}
