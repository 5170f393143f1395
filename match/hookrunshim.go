package match

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// managerReads are, by version manager, the subcommands that only read: any other one
// (pyenv global|local|install|rehash, asdf set|plugin, mise use, volta pin, ...) may change
// the version a shim runs or what is installed under the manager's root.
var managerReads = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"pyenv":  {"", "version", "versions", "version-name", "version-file", "version-origin", "which", "whence", "root", "prefix", "help", "commands", "completions", "--version", "-v", "exec", "init", "virtualenvs", "--help", "-h", "latest", "hooks", "shims", "sh-shell"},
		"rbenv":  {"", "version", "versions", "version-name", "version-file", "version-origin", "which", "whence", "root", "prefix", "help", "commands", "completions", "--version", "-v", "exec", "init", "--help", "-h", "hooks", "shims"},
		"nodenv": {"", "version", "versions", "version-name", "version-file", "version-origin", "which", "whence", "root", "prefix", "help", "commands", "completions", "--version", "-v", "exec", "init", "--help", "-h", "hooks", "shims"},
		"goenv":  {"", "version", "versions", "version-name", "version-file", "version-origin", "which", "whence", "root", "prefix", "help", "commands", "completions", "--version", "-v", "exec", "init", "--help", "-h", "hooks", "shims"},
		"jenv":   {"", "version", "versions", "version-name", "version-file", "version-origin", "which", "whence", "root", "prefix", "help", "commands", "completions", "--version", "-v", "exec", "init", "--help", "-h", "hooks", "shims", "doctor"},
		"asdf":   {"", "current", "list", "where", "which", "help", "info", "version", "--version", "-v", "--help", "-h", "exec", "env", "latest"},
		"mise":   {"", "current", "ls", "list", "where", "which", "help", "doctor", "version", "--version", "-v", "--help", "-h", "exec", "x", "env", "latest", "ls-remote", "bin-paths", "run", "r", "tasks", "activate", "hook-env", "completion"},
		"volta":  {"", "list", "ls", "which", "help", "--version", "-v", "--help", "-h", "run", "completions"},
	}
})

// versionSwitch reports whether the command words (as written) are a version manager's
// command that may change what its shims run (red team round 51: `pyenv global`, `pyenv
// local` rewrite the version file a shim reads; `pyenv install` adds a version), when a
// startup path is that manager's (its root, or a version file it reads: guardPaths adds
// them for a shim the hooks run). The manager's exec, which runs a program, is judged by
// the line's other words, as any command is.
func (c *startupCheck) versionSwitch(words []string) bool {
	if len(words) == 0 {
		return false
	}
	manager := filepath.Base(words[0])
	if manager == "rtx" {
		manager = "mise"
	}
	reads, ok := managerReads()[manager]
	if !ok {
		return false
	}
	sub := ""
	for _, a := range words[1:] {
		if !strings.HasPrefix(a, "-") || a == "--version" || a == "-v" || a == "--help" || a == "-h" {
			sub = a
			break
		}
	}
	if slices.Contains(reads, sub) {
		return false
	}
	for _, st := range c.paths {
		if strings.Contains(st, manager) || strings.HasSuffix(st, "-version") || strings.HasSuffix(st, "/.tool-versions") ||
			strings.HasSuffix(st, "mise.toml") || strings.HasSuffix(st, "/.nvmrc") {
			return true
		}
	}
	return false
}
