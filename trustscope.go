package hookcore

import (
	"strings"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// TrustScope is what a grant of workspace trust covers (issue 10.10): the project and local
// layer files of a config set, each with its content hash and the hooks it declares. A grant
// records Digest; any change to what the scope lists (a file's content, a new or removed
// file) changes the digest and ends the trust. `hookcore trust show` and `trust grant`
// print a scope so the user sees what they trust before and after granting.
type TrustScope struct {
	Files []TrustedFile
}

// TrustedFile is one file a grant covers.
type TrustedFile struct {
	Path  string
	Layer config.Layer
	// Hash is the hex SHA-256 of the file's content ("" when it could not be read).
	Hash string
	// Failed is set when the file could not be loaded as a whole (it has no hooks).
	Failed bool
	// Hooks are the file's hook entries in file order, broken ones included.
	Hooks []TrustedHook
}

// TrustedHook is one hook entry of a covered file: what it would run.
type TrustedHook struct {
	ID     string
	Event  string // the canonical event, or "" when the entry's event is unknown
	Source string // file:line
	// Type is the action type (command, http, prompt, agent, inject, func).
	Type string
	// Target is what the hook runs, untruncated: the shell command (or the exec form's
	// argv joined by spaces), the URL, the prompt, the message or the func name.
	Target string
	// Broken is set for an entry with errors: it never runs (config.File.Broken).
	Broken bool
	// Enabled is false for `enabled: false` hooks.
	Enabled bool
}

// TrustScopeOf returns the scope of set: its project and local layer files in load order.
func TrustScopeOf(set *config.Set) TrustScope {
	var s TrustScope
	if set == nil {
		return s
	}
	for _, f := range set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		tf := TrustedFile{Path: f.Path, Layer: f.Layer, Hash: f.Hash, Failed: f.Failed}
		for i := range f.Hooks {
			tf.Hooks = append(tf.Hooks, trustedHook(&f.Hooks[i], false))
		}
		for i := range f.Broken {
			tf.Hooks = append(tf.Hooks, trustedHook(&f.Broken[i].Hook, true))
		}
		s.Files = append(s.Files, tf)
	}
	return s
}

func trustedHook(h *config.Hook, broken bool) TrustedHook {
	return TrustedHook{
		ID: h.ID, Event: string(h.Event), Source: h.Source(), Type: h.Action.Type,
		Target: actionTarget(h.Action), Broken: broken, Enabled: h.Enabled,
	}
}

// actionTarget is what an action runs, untruncated.
func actionTarget(a config.Action) string {
	switch a.Type {
	case config.TypeCommand:
		if a.Command != "" {
			return a.Command
		}
		return strings.Join(a.Args, " ")
	case config.TypeHTTP:
		return a.URL
	case config.TypeInject:
		return a.Message
	case config.TypeFunc:
		return a.Name
	}
	return a.Prompt
}

// Hooks returns the number of hook entries the scope lists.
func (s TrustScope) Hooks() int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Hooks)
	}
	return n
}

// Digest returns the digest a grant of s records: over each file's path and content hash
// (see trust.Digest). It equals TrustDigest of the set s came from.
func (s TrustScope) Digest() string {
	parts := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		parts = append(parts, f.Path+"\x00"+f.Hash)
	}
	return trust.Digest(parts...)
}
