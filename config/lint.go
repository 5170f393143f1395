package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/match"
)

// LintOptions configures Lint. The zero value runs the checks that need no declaration.
type LintOptions struct {
	// Tools are the tool names the harness declares; when empty, matchers are not checked
	// against tools.
	Tools []string
	// Path is the list of directories searched for a command's program, in the form of
	// $PATH; "" means the process's $PATH.
	Path string
	// Home is the user's home directory, where a script path under ~ or $HOME (${HOME})
	// is looked for; "" means os.UserHomeDir, and such a path is not checked when that
	// fails.
	Home string
}

// interpreters are programs whose first non-flag argument is the script to check.
var interpreters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "python": true, "python3": true,
		"node": true, "deno": true, "bun": true, "ruby": true, "perl": true, "php": true,
		"pwsh": true, "tsx": true, "ts-node": true,
	}
})

// scriptExts are the extensions that make a word look like a script path.
var scriptExts = []string{".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php"}

// Lint returns the warnings that `hookcore check` adds to validation (DESIGN.md section 9);
// it never returns errors, and it reads the file system.
//
//   - A command hook whose script does not exist: the script is the first word of the
//     command, or the first non-flag argument of a known interpreter (sh, bash, python3,
//     node, ruby, perl, ...), when it looks like a path (it holds a '/' or ends in .py, .sh,
//     .js, .rb, .pl, ...). A relative path is resolved against the project root of the
//     config file: the parent of the hidden directory the file lives in (".hookcore",
//     ".claude", ...), else the file's directory. $CLAUDE_PROJECT_DIR and
//     $HOOKCORE_PROJECT_DIR (also in ${...} form) expand to that root, $HOOKCORE_CONFIG_DIR
//     to the config file's directory, and in a shell command an unquoted ~ and $HOME to
//     opts.Home, as the shell expands them (mvdan.cc/sh's expand); a path with any other
//     '$', $(...) or a glob is skipped. The warning gives the path looked for when the
//     script was written with a variable or ~.
//   - A command hook whose program is a bare name (no '/' or '$') that is neither a shell
//     reserved word nor a builtin and is not found in opts.Path: `program "ruff" not found
//     in PATH`. The program is the first word of the first simple command (after VAR=x
//     assignments, env and exec with their options), or args[0]; a name that looks like a
//     script (hook.py) is left to the check above.
//   - A hookcore config (not a MiniCode one) that declares no hooks and does not set
//     disable_all_hooks: empty, only comments, or hooks: with nothing under it; at the
//     file, with no line.
//   - A matcher on a tool event that matches none of opts.Tools.
//   - A permission-rule `if` whose tool the hook's matcher never passes (matcher "Write",
//     if "Edit(.env)"): the hook can never run, since a rule matches only its own tool
//     (match.If.RuleTools; Claude Code 2.1.332 does the same), a Read rule Read and the
//     searches Grep, Glob and LS.
//
// Warnings carry the hook entry's position, the empty file's warning the file's.
func Lint(f *File, opts LintOptions) ErrorList {
	var out ErrorList
	if f == nil {
		return nil
	}
	root := lintRoot(f.Path)
	if abs, err := filepath.Abs(root); err == nil {
		root = abs // so that an expanded $CLAUDE_PROJECT_DIR is not joined twice
	}
	configDir := filepath.Dir(absPath(f.Path))
	// What a shell-form script path may read (resolveScript): ~ and $HOME in the home
	// directory, the project and config directories as the hook gets them.
	vars := map[string]string{"CLAUDE_PROJECT_DIR": root, "HOOKCORE_PROJECT_DIR": root, "HOOKCORE_CONFIG_DIR": configDir}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home != "" {
		vars["HOME"] = home
	}
	if f.Dialect == Native && !isMiniCodeConfig(f.Path) && !f.Failed && f.Entries == 0 && !f.DisableAll {
		// Empty, only comments, or hooks: with nothing under it: all alike, a warning
		// (new-user trial, stop 33; docs/decisions.md). A misspelled hooks: key is the
		// parser's error, since the hooks written under it would not run.
		out = append(out, &Problem{Pos: Pos{File: f.Path}, Warning: true,
			Msg: "the file declares no hooks (it is empty, or hooks: holds nothing): it runs nothing"})
	}
	warnedMatcher := map[string]bool{} // a matcher shared by a Claude Code group: warn once
	for i := range f.Hooks {
		h := &f.Hooks[i]
		warn := func(msg string) {
			out = append(out, &Problem{Pos: h.Pos, HookID: h.ID, Msg: msg, Warning: true})
		}
		if h.Action.Type == TypeCommand {
			if prog := programOf(h.Action); prog != "" && !lookPath(prog, opts.Path, root) {
				warn("program " + quote(prog) + " not found in PATH")
			}
			if script, value := scriptOf(h.Action, vars); script != "" {
				if p, ok := resolveScript(value, root, configDir); ok {
					if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
						msg := "script " + quote(script) + " does not exist"
						if p != script {
							msg += " (" + p + ")" // where it was looked for (new-user trial, stop 34)
						}
						warn(msg)
					}
				}
			}
		}
		if h.If != "" && h.Event.MatchField() == "tool_name" {
			lintIfTool(h, warn)
		}
		if m, err := h.CompileMatcher(); err == nil {
			if msg := claudeMatcherWarning(h, m); msg != "" {
				warn(msg)
			}
		}
		if len(opts.Tools) > 0 && h.Event.MatchField() == "tool_name" {
			m, err := h.CompileMatcher()
			if err != nil || m.Any() {
				continue
			}
			hit := false
			for _, t := range opts.Tools {
				if m.Match(t) {
					hit = true
					break
				}
			}
			if key := string(h.Event) + "\x00" + h.Matcher; !hit && !warnedMatcher[key] {
				warnedMatcher[key] = true
				warn("matcher " + quote(h.Matcher) + " matches none of the declared tools (" + strings.Join(opts.Tools, ", ") + ")")
			}
		}
	}
	return out
}

// lintIfTool warns about a permission-rule `if` whose tool the hook's matcher never passes,
// and about the other tools an exact-name matcher lists that the rule never matches.
func lintIfTool(h *Hook, warn func(string)) {
	f, err := match.CompileIf(h.If)
	if err != nil || f.RuleTool() == "" {
		return
	}
	m, err := h.CompileMatcher()
	if err != nil || m.Any() {
		return
	}
	tools := f.RuleTools()
	which, why := tools[0], "a permission rule matches its own tool only, as in Claude Code"
	if len(tools) > 1 {
		which = strings.Join(tools[:len(tools)-1], ", ") + " and " + tools[len(tools)-1]
		why = "a Read rule matches Read and the searches, as Claude Code's permissions do"
	}
	if !slices.ContainsFunc(tools, m.Match) {
		warn("if " + quote(h.If) + " matches only " + which + " calls, which matcher " + quote(h.Matcher) +
			" never passes: the hook never runs (" + why + ")")
		return
	}
	var others []string
	names, _, _ := m.List()
	for _, n := range names {
		if !slices.ContainsFunc(tools, func(t string) bool { return strings.EqualFold(n, t) }) {
			others = append(others, n)
		}
	}
	if len(others) > 0 {
		warn("if " + quote(h.If) + " matches only " + which + " calls: the hook never runs for " + strings.Join(others, ", ") +
			" that matcher " + quote(h.Matcher) + " lets through (" + why + ")")
	}
}

func quote(s string) string { return `"` + s + `"` }

// lintRoot returns the project root for a config file path: the parent of the dot-directory
// holding it (.hookcore, .claude, ...), else the project root of its directory (the git
// top-level, as at run time), else its directory.
func lintRoot(path string) string {
	dir := filepath.Dir(path)
	if b := filepath.Base(dir); len(b) > 1 && b[0] == '.' && b != ".." {
		return filepath.Dir(dir)
	}
	return ProjectRoot(dir)
}

// scriptOf returns the word of a command action that names a script, or "" for none: as
// written (quotes removed) and its value. In the shell form the value is the word as the
// shell expands it with vars (firstWords: "~/x.sh" and "$HOME/x.sh" are in vars["HOME"]),
// and a word whose value is not known there gives ""; in the exec form (args) nothing is
// expanded, as nothing expands it when the hook runs.
func scriptOf(a Action, vars map[string]string) (script, value string) {
	var words []shellWord
	if len(a.Args) > 0 {
		if a.Command != "" {
			words = append(words, shellWord{a.Command, a.Command, true})
		}
		for _, w := range a.Args {
			words = append(words, shellWord{w, w, true})
		}
	} else {
		words = firstWords(a.Command, vars)
	}
	// Skip leading VAR=value assignments and `env`.
	for len(words) > 0 {
		w := words[0].text
		if !(strings.Contains(w, "=") && !strings.HasPrefix(w, "=") || w == "env" || w == "exec") {
			break
		}
		words = words[1:]
	}
	if len(words) == 0 {
		return "", ""
	}
	cand := words[0]
	if interpreters()[filepath.Base(cand.value)] {
		cand = shellWord{}
		for _, w := range words[1:] {
			if w.value == "-c" || w.value == "-e" || w.value == "-m" {
				return "", "" // inline code or a module, not a file
			}
			if !w.known || !strings.HasPrefix(w.value, "-") {
				cand = w
				break
			}
		}
	}
	if !cand.known || !looksLikePath(cand.value) {
		return "", ""
	}
	return cand.text, cand.value
}

func looksLikePath(w string) bool {
	if w == "" || strings.Contains(w, "://") {
		return false
	}
	if strings.Contains(w, "/") {
		return true
	}
	for _, ext := range scriptExts {
		if strings.HasSuffix(w, ext) {
			return true
		}
	}
	return false
}

// resolveScript expands the project-dir variables (to root) and $HOOKCORE_CONFIG_DIR (to
// configDir, the config file's directory) and makes p absolute; ok is false when the path can
// not be known statically.
func resolveScript(p, root, configDir string) (string, bool) {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "HOOKCORE_PROJECT_DIR"} {
		p = strings.ReplaceAll(p, "${"+v+"}", root)
		p = strings.ReplaceAll(p, "$"+v, root)
	}
	p = strings.ReplaceAll(p, "${HOOKCORE_CONFIG_DIR}", configDir)
	p = strings.ReplaceAll(p, "$HOOKCORE_CONFIG_DIR", configDir)
	if strings.Contains(p, "$") || strings.HasPrefix(p, "~") {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return p, true
}

// shellWords splits the first simple command of a shell command line into words, honouring
// single and double quotes and backslashes; it stops at an unquoted ; & | < > ( or newline.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte(";&|<>()\n", c) >= 0:
			if inWord {
				words = append(words, cur.String())
			}
			return words
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
