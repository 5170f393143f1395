package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// EnvVar is a variable that a repository's file gives the environment of every hook an
// agent runs (ProjectEnv).
type EnvVar struct {
	Name string
	// Value is the value the file gives it; Valued is false for a word of a Gemini CLI .env
	// that a dotenv reading may take as a key where no plain NAME=value line of the file
	// gives it a value.
	Value  string
	Valued bool
}

// ProjectEnv is what one file of a repository gives the environment of every hook an agent
// runs, hookcore's hook command and the user's guards included: the env of a Claude Code
// settings file of the project (.claude/settings.json, .claude/settings.local.json), or
// the .env Gemini CLI loads (.gemini/.env, .env). A trust grant binds its Digest
// (trust.Entry.Env): while the grant holds and the file gives the same, the variables of
// it that GuardEnv refuses are accepted under an agent, those of GrantKeeps excepted.
type ProjectEnv struct {
	Path string
	// Vars are its variables, sorted by name. For a .env they are the words that stand
	// where a dotenv reading takes a key (DotEnvKeys), with the value of a plain
	// NAME=value line; a key whose line is not plain (a blank other than a space before
	// its '=') has no value shown.
	Vars []EnvVar
	// Digest is what a grant binds, "" when the file gives no variable: for a settings
	// file the SHA-256 of its env members (every top-level "env", in canonical JSON, in
	// file order), for a .env the SHA-256 of its content.
	Digest string
}

// Value returns the value the file gives the variable name; ok is false when it gives it
// none that hookcore read (a .env word outside a plain NAME=value line, or no such name).
func (pe ProjectEnv) Value(name string) (value string, ok bool) {
	for _, v := range pe.Vars {
		if v.Name == name {
			return v.Value, v.Valued
		}
	}
	return "", false
}

// ProjectEnvPaths returns the files of the directory dir whose variables an agent gives
// every hook: Claude Code's .claude/settings.json and .claude/settings.local.json, and the
// first of .gemini/.env and .env (Gemini CLI 0.61.0 loads the first it finds from its
// working directory up; a session started in dir loads dir's when it has one). Whether
// the files exist is not checked.
func ProjectEnvPaths(dir string) []string {
	paths := []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json")}
	dotenv := filepath.Join(dir, ".env")
	if p := filepath.Join(dir, ".gemini", ".env"); exists(p) {
		dotenv = p
	}
	return append(paths, dotenv)
}

// exists reports whether path names a directory entry (a link is not followed).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// EnvHolder returns the directory that holds the project env file at path: the parent of
// its .claude or .gemini directory, or the directory of a .env. A trust grant of that
// directory is the one that may accept its variables.
func EnvHolder(path string) string {
	dir := filepath.Dir(path)
	if b := filepath.Base(dir); b == ".claude" || b == ".gemini" {
		return filepath.Dir(dir)
	}
	return dir
}

// EnvKey returns the key under which a grant records the env file at path
// (trust.Entry.Env): its path relative to EnvHolder, in slash form.
func EnvKey(path string) string {
	rel, err := filepath.Rel(EnvHolder(path), path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// ReadProjectEnv reads the project env file at path (at most max bytes, as a regular
// file): a Claude Code settings file (IsClaudeSettings) or a Gemini CLI .env. Errors: those
// of regularfile.Read (fs.ErrNotExist for a missing file; ErrTooLarge); ErrUncheckedEnv
// for a settings file that is not a JSON object and mentions "env".
func ReadProjectEnv(path string, max int64) (ProjectEnv, error) {
	data, _, err := regularfile.Read(path, max)
	if err != nil {
		return ProjectEnv{Path: path}, err
	}
	if IsClaudeSettings(path) {
		return settingsEnv(path, data)
	}
	return DotEnv(path, data), nil
}

// settingsEnv is ReadProjectEnv of a Claude Code settings file's content. Claude Code reads
// the file behind a byte order mark (boundMembers), and JSON.parse keeps the last of two
// members of one name: Vars are those of the last env member, and Digest binds all.
func settingsEnv(path string, data []byte) (ProjectEnv, error) {
	pe := ProjectEnv{Path: path}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !isJSONObject(data) {
		if bytes.Contains(data, []byte(`"env"`)) {
			return pe, ErrUncheckedEnv
		}
		return pe, nil
	}
	h := sha256.New()
	h.Write([]byte("hookcore trust: settings env\n"))
	var last []byte
	topMembers(data, func(key string, _, vs, ve int) {
		if key == "env" {
			v := canonicalJSON(data[vs:ve])
			h.Write(v)
			h.Write([]byte{'\n'})
			last = data[vs:ve]
		}
	})
	if last == nil {
		return pe, nil
	}
	pe.Digest = hex.EncodeToString(h.Sum(nil))
	var env map[string]json.RawMessage
	if json.Unmarshal(last, &env) == nil {
		for k, raw := range env {
			var value string
			if json.Unmarshal(raw, &value) != nil {
				value = string(raw) // not a string: judged by its text, as envOf does
			}
			pe.Vars = append(pe.Vars, EnvVar{Name: k, Value: value, Valued: true})
		}
	}
	sortVars(pe.Vars)
	return pe, nil
}

// DotEnv is ReadProjectEnv of a Gemini CLI .env file's content, data.
func DotEnv(path string, data []byte) ProjectEnv {
	sum := sha256.Sum256(append([]byte("hookcore trust: dotenv\n"), data...))
	pe := ProjectEnv{Path: path, Digest: hex.EncodeToString(sum[:])}
	seen := map[string]bool{}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(line, "export "))
		i := strings.IndexAny(line, "=:")
		if i <= 0 || strings.HasPrefix(line, "#") {
			continue
		}
		name, value := strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:])
		if !ShellName(name) || seen[name] {
			continue
		}
		if n := len(value); n >= 2 && (value[0] == '"' || value[0] == '\'' || value[0] == '`') && value[n-1] == value[0] {
			value = value[1 : n-1]
		} else if j := strings.Index(value, " #"); j >= 0 {
			value = strings.TrimSpace(value[:j])
		}
		seen[name] = true
		pe.Vars = append(pe.Vars, EnvVar{Name: name, Value: value, Valued: true})
	}
	for _, k := range DotEnvKeys(data) {
		if !seen[k] {
			seen[k] = true
			pe.Vars = append(pe.Vars, EnvVar{Name: k})
		}
	}
	sortVars(pe.Vars)
	if len(pe.Vars) == 0 && len(bytes.TrimSpace(data)) == 0 {
		pe.Digest = ""
	}
	return pe
}

func sortVars(vars []EnvVar) {
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
}

// EnvMayRefuse reports whether GuardEnv refuses the variable name with some value, or
// NetworkEnv takes it: what trust show marks in a .env whose values it does not read.
func EnvMayRefuse(name string) bool {
	return GuardEnv(name, "?.?") || NetworkEnv(name)
}

// GrantKeeps says why a trust grant does not accept the variable name, which GuardEnv
// refuses, in a project's env, "" when a grant accepts it. A grant is the user's review
// of a repository's env; what it cannot vouch for is hookcore itself (stop 29):
//
//   - HOME: where hookcore reads the user's policy and the trust store, the grant
//     itself included;
//   - HOOKCORE_*: hookcore's own settings (HOOKCORE_STATE_DIR, HOOKCORE_AUDIT,
//     HOOKCORE_MODEL, ...);
//   - XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME: where install and uninstall keep
//     their records and backups, and where Go's tools look;
//   - PATH: which bash and which hookcore hookcore itself runs (a shell: bash hook, the
//     lean hook binary's hand-over), as well as every program of every guard;
//   - LD_* and DYLD_*: code the loader puts into hookcore's own process (it is linked
//     dynamically where cgo is on) and into every program it starts;
//   - a name that is no shell identifier (an exported bash function, BASH_FUNC_name%%):
//     no project needs one, and trust show could show it only quoted and cut.
func GrantKeeps(name string) string {
	if !ShellName(name) {
		return "it is no plain variable name"
	}
	u := strings.ToUpper(name)
	switch {
	case u == "HOME", u == "PATH", strings.HasPrefix(u, "HOOKCORE_"),
		u == "XDG_STATE_HOME", u == "XDG_CONFIG_HOME", u == "XDG_CACHE_HOME":
		return "hookcore itself reads it"
	case strings.HasPrefix(u, "LD_"), strings.HasPrefix(u, "DYLD_"):
		return "the loader puts its code into hookcore itself"
	}
	return ""
}

// EnvNamesPathIn reports whether value, the value of the variable name in a project's
// env, may name a path inside one of dirs (the workspace, the hook's working directory),
// where the agent can write: a trust grant binds the env's text, not the files it names,
// so a file the agent writes there would run in, or configure, the user's guards without
// the grant going stale (stop 29). value is split into words at blanks and at ':', ';',
// ',', '=' and quotes; a word counts when it is
//
//   - a relative path: a word that starts with '.' (".", "..", ".venv") or holds a '/' and
//     does not start with '/' or '~' (a relative path is read from the hook's working
//     directory, the workspace's);
//   - an absolute path inside one of dirs (or a link into one);
//   - a bare word that names an entry of one of dirs (PYTHONPATH=src; one the agent
//     creates later counts from then on, and the hook command checks before every event);
//
// with a leading '@' (a Java argument file) or a short option ("-Isrc") taken off first.
// An empty element of a list of paths (a name ending in PATH or PATHS: "/usr/bin::/bin")
// is the working directory, and counts. "~" and an empty value do not. The test errs
// towards counting: a word that only looks like a path (APP_CONFIG=config/dev.yaml) counts.
func EnvNamesPathIn(name, value string, dirs []string) bool {
	if value == "" {
		return false
	}
	u := strings.ToUpper(name)
	if strings.HasSuffix(u, "PATH") || strings.HasSuffix(u, "PATHS") {
		for _, el := range strings.Split(value, string(os.PathListSeparator)) {
			if el == "" {
				return true
			}
		}
	}
	roots := make([]string, 0, 2*len(dirs))
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		roots = append(roots, filepath.Clean(d))
		if real, err := filepath.EvalSymlinks(d); err == nil {
			roots = append(roots, real)
		}
	}
	words := strings.FieldsFunc(value, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f', ':', ';', ',', '=', '"', '\'', '`':
			return true
		}
		return false
	})
	for _, w := range words {
		w = strings.TrimLeft(w, "@")
		if strings.HasPrefix(w, "-") {
			w = strings.TrimLeft(w, "-")
			if w == "" {
				continue
			}
			w = w[1:] // the option's letter: -Isrc names src
		}
		if w != "" && pathIn(w, roots) {
			return true
		}
	}
	return false
}

// pathIn reports whether the word w may name a path inside one of roots (absolute,
// cleaned; EnvNamesPathIn).
func pathIn(w string, roots []string) bool {
	switch {
	case strings.HasPrefix(w, "~"):
		return false
	case filepath.IsAbs(w):
		paths := []string{filepath.Clean(w), resolved(filepath.Clean(w))}
		for _, p := range paths {
			for _, r := range roots {
				if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) || r == string(filepath.Separator) {
					return true
				}
			}
		}
		return false
	case strings.HasPrefix(w, ".") || strings.ContainsRune(w, '/'):
		return true
	}
	for _, r := range roots {
		if exists(filepath.Join(r, w)) {
			return true
		}
	}
	return false
}

// resolved is the absolute, clean path p with the links of its longest existing prefix
// resolved (a link into the workspace followed by a name the agent has yet to create).
func resolved(p string) string {
	rest := ""
	for d := p; ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(d) == d {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}
