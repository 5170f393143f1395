package hookcore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/config"
)

// HookCover is what a trust grant binds for one project or local hook (issue 11.1): the
// hook's definition and every file inside the project that its command runs, each by
// content hash, folded into Digest. A change to any of them changes Digest, and the hook is
// pending again until the user grants trust anew; the other hooks keep their trust.
type HookCover struct {
	ID     string // the hook's id
	Source string // file:line of its entry
	Digest string // hex SHA-256 over the definition and the files
	// Files are the scripts and programs inside the project root that the command runs,
	// resolved as the command will run them (./x.sh, bash .hookcore/x.sh,
	// python3 scripts/y.py, exec-form args[0], ${CLAUDE_PROJECT_DIR}/…), with their hashes.
	Files []CoveredFile
	// NotCovered says, per command word that could not be resolved statically (a variable
	// other than the project and config dirs, a command substitution, a command that does
	// not parse), why trust cannot cover what it runs. Empty: everything the hook runs from
	// the project is covered.
	NotCovered []string
	// Relative are the covered files the command names by a relative path, which the shell
	// resolves against the hook's working directory at run time (the session's cwd), not
	// against the project root the grant hashed them in.
	Relative []RelativeFile
}

// RelativeFile is a covered file named by a relative path: Rel as written, SHA256 its hash
// in the project root.
type RelativeFile struct{ Rel, SHA256 string }

// RelativeMismatch returns, for a hook run in cwd, the first relative file whose content
// there is not the content the grant bound in the project root (red-team finding: a
// project hook "./x.sh" fired with the cwd in a subdirectory ran an unhashed sub/x.sh).
// "" when every one matches, or cwd is the root.
func (c *HookCover) RelativeMismatch(cwd, root string) string {
	if len(c.Relative) == 0 || cwd == "" || filepath.Clean(cwd) == filepath.Clean(root) {
		return ""
	}
	for _, r := range c.Relative {
		if fileHash(filepath.Join(cwd, r.Rel)) != r.SHA256 {
			return r.Rel
		}
	}
	return ""
}

// CoveredFile is one file a grant binds.
type CoveredFile struct {
	Path   string // absolute
	SHA256 string // hex content hash; "missing" when the file does not exist, "unreadable: …"
}

// maxCoveredFile caps how much of a script is hashed, in bytes (64 MiB): a bigger file is
// hashed as its first 64 MiB plus its size.
const maxCoveredFile = 64 << 20

// interpreters run the script named by their first operand (config/lint.go has the same
// list for the missing-script warning; this one adds source and ".").
var coverInterpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "python": true,
	"python3": true, "node": true, "deno": true, "bun": true, "ruby": true, "perl": true,
	"php": true, "pwsh": true, "tsx": true, "ts-node": true, "source": true, ".": true,
	"uv": true, "npx": true,
}

// coverWrappers run their operand as the command (their options are skipped).
var coverWrappers = map[string]bool{
	"env": true, "exec": true, "command": true, "nohup": true, "sudo": true, "time": true,
	"nice": true, "timeout": true, "xargs": true, "setsid": true, "stdbuf": true,
}

// CoverHook computes what a grant binds for h, a hook of file f, in the project at root.
func CoverHook(h *config.Hook, f *config.File, root string) HookCover {
	c := HookCover{ID: h.ID, Source: h.Source()}
	configDir := filepath.Dir(f.Path)
	var paths []string
	switch {
	case len(h.Action.Args) > 0:
		words := h.Action.Args
		if h.Action.Command != "" {
			words = append([]string{h.Action.Command}, words...)
		}
		paths, c.NotCovered = coverWords(staticWords(words, root, configDir))
	case h.Action.Command != "":
		paths, c.NotCovered = coverCommand(h.Action.Command, root, configDir)
	}
	for _, p := range paths {
		rel := ""
		if !filepath.IsAbs(p) {
			rel = p
			p = filepath.Join(root, p)
		}
		p = filepath.Clean(p)
		if !within(p, root) && !within(p, configDir) {
			continue // the user's own programs (/usr/bin/python3): not the repository's to change
		}
		if slices.ContainsFunc(c.Files, func(cf CoveredFile) bool { return cf.Path == p }) {
			continue
		}
		c.Files = append(c.Files, CoveredFile{Path: p, SHA256: fileHash(p)})
		if rel != "" {
			c.Relative = append(c.Relative, RelativeFile{Rel: rel, SHA256: c.Files[len(c.Files)-1].SHA256})
		}
	}
	c.Digest = coverDigest(h, f, root, c.Files)
	return c
}

// coverDigest folds the hook's definition (without its position, so that moving it in
// the file keeps its trust) and its files into one digest.
func coverDigest(h *config.Hook, f *config.File, root string, files []CoveredFile) string {
	def := *h
	def.Pos, def.Index = config.Pos{}, 0
	b, _ := json.Marshal(def)
	rel, err := filepath.Rel(root, f.Path)
	if err != nil {
		rel = f.Path
	}
	s := sha256.New()
	fmt.Fprintf(s, "hookcore-trust-v2\x00%s\x00%s\x00", rel, b)
	for _, cf := range files {
		p := cf.Path
		if r, err := filepath.Rel(root, p); err == nil {
			p = r // the same workspace reached through another path keeps its trust
		}
		fmt.Fprintf(s, "%s\x00%s\x00", p, cf.SHA256)
	}
	return hex.EncodeToString(s.Sum(nil))
}

func fileHash(p string) string {
	fh, err := os.Open(p)
	if err != nil {
		if os.IsNotExist(err) {
			return "missing"
		}
		return "unreadable: " + err.Error()
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return "unreadable: " + err.Error()
	}
	if !st.Mode().IsRegular() {
		return "not a regular file"
	}
	s := sha256.New()
	n, err := io.Copy(s, io.LimitReader(fh, maxCoveredFile))
	if err != nil {
		return "unreadable: " + err.Error()
	}
	if st.Size() > n {
		fmt.Fprintf(s, "\x00size=%d", st.Size())
	}
	return hex.EncodeToString(s.Sum(nil))
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// word is one command word: its static value, or dyn with why it is not static.
type word struct {
	val string
	dyn string
}

// coverCommand resolves the files every simple command of a shell command line runs.
func coverCommand(cmd, root, configDir string) ([]string, []string) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, []string{"the command does not parse as shell: " + err.Error()}
	}
	var paths, notCovered []string
	stdin := map[*syntax.CallExpr]word{} // a statement's "< FILE", for "sh < script.sh"
	syntax.Walk(file, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if call, ok := st.Cmd.(*syntax.CallExpr); ok {
				for _, r := range st.Redirs {
					if r.Op == syntax.RdrIn && r.Word != nil {
						stdin[call] = staticWord(r.Word, root, configDir)
					}
				}
			}
			return true
		}
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		ws := make([]word, 0, len(call.Args))
		for _, a := range call.Args {
			ws = append(ws, staticWord(a, root, configDir))
		}
		p, nc := coverWords(ws)
		paths, notCovered = append(paths, p...), append(notCovered, nc...)
		// "sh -c 'CODE'": the code is config text (covered by the digest), but what it runs
		// is resolved like the command's own words.
		if code, ok := shellCode(ws); ok {
			p, nc := coverCommand(code, root, configDir)
			paths, notCovered = append(paths, p...), append(notCovered, nc...)
		}
		// "sh < script.sh": the script comes on stdin.
		if in, ok := stdin[call]; ok && len(p) == 0 && len(ws) > 0 && coverInterpreters[filepath.Base(ws[0].val)] {
			if in.dyn != "" {
				notCovered = append(notCovered, "the script on stdin: "+in.dyn)
			} else {
				paths = append(paths, in.val)
			}
		}
		return true
	})
	return paths, notCovered
}

// staticWords turns exec-form words into words, expanding the project and config dirs.
func staticWords(ws []string, root, configDir string) []word {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		out = append(out, word{val: expandDirs(w, root, configDir)})
	}
	return out
}

func expandDirs(s, root, configDir string) string {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "HOOKCORE_PROJECT_DIR"} {
		s = strings.ReplaceAll(s, "${"+v+"}", root)
		s = strings.ReplaceAll(s, "$"+v, root)
	}
	s = strings.ReplaceAll(s, "${HOOKCORE_CONFIG_DIR}", configDir)
	return strings.ReplaceAll(s, "$HOOKCORE_CONFIG_DIR", configDir)
}

// staticWord evaluates a shell word when it is made only of literals, quotes and the
// project and config dir variables.
func staticWord(w *syntax.Word, root, configDir string) word {
	var b strings.Builder
	var dyn string
	var part func(p syntax.WordPart)
	part = func(p syntax.WordPart) {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q)
			}
		case *syntax.ParamExp:
			name := ""
			if x.Param != nil {
				name = x.Param.Value
			}
			simple := x.Exp == nil && x.Repl == nil && x.Slice == nil && x.Index == nil && !x.Length && !x.Excl && x.Names == 0
			switch {
			case simple && (name == "CLAUDE_PROJECT_DIR" || name == "HOOKCORE_PROJECT_DIR"):
				b.WriteString(root)
			case simple && name == "HOOKCORE_CONFIG_DIR":
				b.WriteString(configDir)
			default:
				dyn = fmt.Sprintf("$%s is not known until the hook runs", name)
			}
		default:
			dyn = "a substitution or expansion is not known until the hook runs"
		}
	}
	for _, p := range w.Parts {
		part(p)
	}
	if dyn != "" {
		return word{dyn: dyn}
	}
	v := b.String()
	if strings.HasPrefix(v, "~/") {
		return word{dyn: "~ is the user's home, outside the project"}
	}
	return word{val: v}
}

// coverWords finds the program or script one simple command runs from its words: the
// command word when it is a path, the first operand of an interpreter or of source, after
// VAR=value assignments and wrappers such as env and sudo. Bare program names are looked up
// in PATH at run time and are the user's, not the project's.
func coverWords(ws []word) (paths, notCovered []string) {
	i := 0
	for i < len(ws) && ws[i].dyn == "" && isAssignment(ws[i].val) {
		i++
	}
	for i < len(ws) && ws[i].dyn == "" && coverWrappers[filepath.Base(ws[i].val)] {
		i++
		for i < len(ws) && ws[i].dyn == "" && (strings.HasPrefix(ws[i].val, "-") || isAssignment(ws[i].val) || isDuration(ws[i].val)) {
			i++
		}
	}
	if i >= len(ws) {
		return nil, nil
	}
	cmd := ws[i]
	if cmd.dyn != "" {
		return nil, []string{"the program: " + cmd.dyn}
	}
	if strings.Contains(cmd.val, "/") {
		paths = append(paths, cmd.val)
	}
	base := filepath.Base(cmd.val)
	if why, ok := projectRunners[base]; ok {
		return paths, []string{base + " " + why + ", which trust does not hash"}
	}
	if !coverInterpreters[base] {
		return paths, nil
	}
	for _, w := range ws[i+1:] {
		if w.dyn != "" {
			return paths, []string{fmt.Sprintf("the script of %s: %s", filepath.Base(cmd.val), w.dyn)}
		}
		switch {
		case w.val == "-m":
			return paths, []string{base + " -m runs a module found on its import path (the working directory first)"}
		case w.val == "-c" || w.val == "-e" || w.val == "--eval" || w.val == "-":
			return paths, nil // inline code: part of the config, so covered by its digest
		case w.val == "run" && filepath.Base(cmd.val) == "deno", w.val == "run" && filepath.Base(cmd.val) == "uv":
			continue
		case strings.HasPrefix(w.val, "-"):
			continue
		}
		if filepath.Base(cmd.val) == "npx" || filepath.Base(cmd.val) == "uv" {
			if !strings.Contains(w.val, "/") && !strings.Contains(w.val, ".") {
				return paths, nil // a package name, not a file
			}
		}
		return append(paths, w.val), nil
	}
	return paths, nil
}

// projectRunners run what files of the project define: trust shows them as not covered.
var projectRunners = map[string]string{
	"make": "runs the project's Makefile", "gmake": "runs the project's Makefile",
	"just": "runs the project's justfile", "task": "runs the project's Taskfile",
	"npm": "runs scripts of the project's package.json", "yarn": "runs scripts of the project's package.json",
	"pnpm":  "runs scripts of the project's package.json",
	"cargo": "builds and runs the project's code", "go": "builds and runs the project's code",
	"gradle": "runs the project's build files", "mvn": "runs the project's build files", "rake": "runs the project's Rakefile",
}

// shellCode returns the static code of "sh -c CODE" (any POSIX-style shell).
func shellCode(ws []word) (string, bool) {
	if len(ws) < 3 {
		return "", false
	}
	switch filepath.Base(ws[0].val) {
	case "sh", "bash", "dash", "zsh", "ksh":
	default:
		return "", false
	}
	for i := 1; i+1 < len(ws); i++ {
		if ws[i].dyn != "" {
			return "", false
		}
		if ws[i].val == "-c" {
			if ws[i+1].dyn != "" {
				return "", false
			}
			return ws[i+1].val, true
		}
	}
	return "", false
}

// isAssignment reports whether w has the shape NAME=value.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, c := range w[:eq] {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func isDuration(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c == '.' || c == 's' || c == 'm' || c == 'h' || c == 'd') {
			return false
		}
	}
	return s[0] >= '0' && s[0] <= '9'
}
