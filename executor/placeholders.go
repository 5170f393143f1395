package executor

import "github.com/hookcore/hookcore/executor/internal/hookio"

// Placeholders holds the values of Claude Code's placeholders (research note §2.5:
// ${CLAUDE_PROJECT_DIR}, ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA}, braces required) for
// one hook; its Expand replaces them in an http url (the root package) or an exec-form word,
// and fails when the string names a plugin placeholder and the hook is not from a plugin.
// The zero value is a hook outside any plugin. The type is defined in
// executor/internal/hookio because executor/command shares it.
type Placeholders = hookio.Placeholders
