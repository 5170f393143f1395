package match

import "fmt"

// WithConfigChanged sets what of hookcore's config changed since the session's previous
// event (the caller compares the files of the hook config with the snapshot that event
// took: one description per changed file) and returns s. A `tool
// changed hook_config` clause holds when changed is not empty. Call it before s is used.
// Without it the clause never holds.
func (s *Subject) WithConfigChanged(changed []string) *Subject {
	s.changed = changed
	return s
}

// ConfigChanged reports whether the condition has a `tool changed hook_config` clause: the
// caller must then arm the session: compare the hook config's files at each of its events
// with the previous event's snapshot (WithConfigChanged). False for a nil *If and the other syntaxes.
func (f *If) ConfigChanged() bool {
	if f == nil || f.cond == nil {
		return false
	}
	for i := range f.cond.clauses {
		if f.cond.clauses[i].changed {
			return true
		}
	}
	return false
}

// checkChanged checks a `changed` clause: the field tool and the bare word hook_config
// (src, the value as written). `changes` says what a call may do, read before it runs;
// `changed` what it did, seen after (the tripwire, stop 32).
func checkChanged(field fieldKind, src string, isRegex bool) error {
	if field != fieldTool {
		return fmt.Errorf("changed reads tool: `tool changed %s` holds when hookcore's config files changed since the session's previous event", HookConfig)
	}
	if isRegex || src != HookConfig {
		return fmt.Errorf("changed takes %s (`tool changed %s`), found %s", HookConfig, HookConfig, src)
	}
	return nil
}
