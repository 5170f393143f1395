package hookio

import (
	"errors"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// Claude Code's placeholders (research note §2.5): ${CLAUDE_PROJECT_DIR},
// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA}, braces required, are replaced by their
// values in an exec-form program and arguments and in an http url; both forms also get
// them as environment variables, so the shell form needs no substitution. Observed with
// Claude Code 2.1.332 (peer-claude, exec form `{"command": "${CLAUDE_PROJECT_DIR}/h.sh",
// "args": ["${CLAUDE_PROJECT_DIR}/x", "$HOME", "$(echo hi)"]}`): h.sh runs with the
// arguments `<project>/x`, `$HOME` and `$(echo hi)` — only the placeholders change.

// errNoPluginRoot is a hook that names ${CLAUDE_PLUGIN_ROOT} without coming from a plugin.
// Claude Code 2.1.332 does not run it ("Failed to run: Hook command references
// ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin").
var errNoPluginRoot = errors.New("the hook references ${CLAUDE_PLUGIN_ROOT} but is not from a plugin")

// Placeholders holds the values of Claude Code's placeholders for one hook. The zero value
// is a hook outside any plugin.
type Placeholders struct {
	// ProjectDir is ${CLAUDE_PROJECT_DIR}.
	ProjectDir string
	// PluginRoot is ${CLAUDE_PLUGIN_ROOT}, the plugin's directory; "" outside a plugin.
	PluginRoot string
	// PluginData is ${CLAUDE_PLUGIN_DATA}, the plugin's persistent data directory.
	PluginData string
}

// Expand replaces the placeholders in s. It fails when s names ${CLAUDE_PLUGIN_ROOT} or
// ${CLAUDE_PLUGIN_DATA} and p has no plugin ("the hook references ${CLAUDE_PLUGIN_ROOT}
// but is not from a plugin", Claude Code 2.1.332).
func (p Placeholders) Expand(s string) (string, error) {
	if !strings.Contains(s, "${CLAUDE_") {
		return s, nil
	}
	if p.PluginRoot == "" && (strings.Contains(s, "${CLAUDE_PLUGIN_ROOT}") || strings.Contains(s, "${CLAUDE_PLUGIN_DATA}")) {
		return "", errNoPluginRoot
	}
	return strings.NewReplacer(
		"${CLAUDE_PROJECT_DIR}", p.ProjectDir,
		"${CLAUDE_PLUGIN_ROOT}", p.PluginRoot,
		"${CLAUDE_PLUGIN_DATA}", p.PluginData,
	).Replace(s), nil
}

// claudePlaceholders are the placeholder names Placeholders replaces.
var claudePlaceholders = []string{"${CLAUDE_PROJECT_DIR}", "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"}

// ExpandExec expands one exec-form word of a command hook in a single pass: p's
// placeholders and the context variables of in (vars.go). A value is never scanned again,
// so a tool input that holds "${CLAUDE_PLUGIN_ROOT}" stays as it is. It fails as
// p.Expand does, before anything is expanded.
func ExpandExec(p Placeholders, s string, in *hook.Input) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	if _, err := p.Expand(s); err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '$' {
			if v, n, ok := p.at(s[i:]); ok {
				b.WriteString(v)
				i += n
				continue
			}
			if name, end, ok := At(s, i); ok {
				b.WriteString(Value(in, name))
				i = end
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String(), nil
}

// at returns the value of the Claude Code placeholder s starts with and its length.
func (p Placeholders) at(s string) (value string, n int, ok bool) {
	for i, name := range claudePlaceholders {
		if strings.HasPrefix(s, name) {
			return [...]string{p.ProjectDir, p.PluginRoot, p.PluginData}[i], len(name), true
		}
	}
	return "", 0, false
}
