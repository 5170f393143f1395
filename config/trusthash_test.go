package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustHash: a trust grant binds what hookcore reads of Claude Code's and Gemini CLI's
// settings files — hooks, the kill switches, enabledPlugins — and not what the agent writes
// there while a session runs (Claude Code's "don't ask again" adds permissions to
// .claude/settings.local.json, which made a trusted workspace stale and blocked every tool
// call: stop 25 trial), nor its formatting (Claude Code re-indents the file when it saves a
// rule). A settings file with none of those keys is not bound at all; every hookcore file and
// every other agent's hook file is bound by its whole content.
func TestTrustHash(t *testing.T) {
	t.Parallel()
	const claude = ".claude/settings.local.json"
	hash := func(path, src string, agent Dialect) (string, bool) {
		t.Helper()
		f, _ := parse(path, []byte(src), Project, agent)
		return f.TrustHash()
	}
	hooks := `"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "g"}]}]}`
	base, ok := hash(claude, `{`+hooks+`, "permissions": {"allow": ["Bash(ls:*)"]}}`, Native)
	if !ok {
		t.Fatal("a settings file with hooks is not bound")
	}
	for _, tc := range []struct {
		name, path, src string
		agent           Dialect
		same, bound     bool
	}{
		{"permissions added", claude, `{` + hooks + `, "permissions": {"allow": ["Bash(ls:*)", "Bash(git:*)"]}, "model": "x"}`, Native, true, true},
		{"env (every hook's environment)", claude, `{` + hooks + `, "permissions": {"allow": ["Bash(ls:*)"]}, "env": {"A": "1"}}`, Native, false, true},
		{"allowedHttpHookUrls", claude, `{` + hooks + `, "permissions": {"allow": ["Bash(ls:*)"]}, "allowedHttpHookUrls": []}`, Native, false, true},
		{"hooks alone", claude, `{` + hooks + `}`, Native, true, true},
		{"re-indented, as Claude Code rewrites the file", claude, "{\n  \"permissions\": {},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"g\"\n          }\n        ]\n      }\n    ]\n  }\n}\n", Native, true, true},
		{"keys of a hook reordered", claude, `{"hooks": {"PreToolUse": [{"hooks": [{"command": "g", "type": "command"}]}]}, "permissions": {}}`, Native, false, true},
		{"member order of unbound keys", claude, `{"permissions": {"allow": ["Bash(ls:*)"]}, ` + hooks + `}`, Native, true, true},
		{"a hook changed", claude, `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "h"}]}]}, "permissions": {}}`, Native, false, true},
		{"a kill switch", claude, `{` + hooks + `, "disableAllHooks": true, "permissions": {}}`, Native, false, true},
		{"enabledPlugins", claude, `{` + hooks + `, "enabledPlugins": {"x@y": true}, "permissions": {}}`, Native, false, true},
		{"permissions only", claude, `{"permissions": {"allow": ["Bash(ls:*)"]}}`, Native, false, false},
		{"gemini", ".gemini/settings.json", `{"ui": {"theme": "x"}}`, Gemini, false, false},
		{"gemini hooksConfig (its kill switch)", ".gemini/settings.json", `{"ui": {"theme": "x"}, "hooksConfig": {"enabled": false}}`, Gemini, false, true},
	} {
		got, bound := hash(tc.path, tc.src, tc.agent)
		if bound != tc.bound || (got == base) != tc.same {
			t.Errorf("%s: bound %v, same as base %v; want %v, %v", tc.name, bound, got == base, tc.bound, tc.same)
		}
	}
	for _, tc := range []struct{ path, src string }{
		{claude, `{` + hooks + `, "permissions": {}`},       // not JSON
		{".hookcore/hooks.json", `{` + hooks + `, "x": 1}`}, // not a settings file
		{".hookcore/hooks.yaml", "hooks: []\nother: 1\n"},
	} {
		f, _ := parse(tc.path, []byte(tc.src), Project, Native)
		if h, ok := f.TrustHash(); !ok || h != f.Hash {
			t.Errorf("%s %q: bound by %q, %v; want the whole content", tc.path, tc.src, h, ok)
		}
	}
}

// TestEnvOverrides: a project's Claude Code settings env that sets a variable GuardEnv names
// (HOME, PATH, HOOKCORE_*, the loader's and the interpreters') is recorded, escaped key
// spellings too (the hook command then fails closed); other variables, other files and
// other layers are not.
func TestEnvOverrides(t *testing.T) {
	t.Parallel()
	src := []byte(`{"env": {"PATH": "/x", "HOOKCORE_STATE_DIR": "/tmp", "HO\u004dE": "/tmp/h", "NODE_ENV": "x", "LD_PRELOAD": "x", "PYTHONSTARTUP": "x", "BASH_ENV": "x", "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", "NODE_OPTIONS": "--max-old-space-size=4096 --no-warnings"}, "permissions": {}}`)
	f, _ := parse(".claude/settings.local.json", src, Local, Native)
	if got := strings.Join(f.EnvOverrides, ","); got != "BASH_ENV,HOME,HOOKCORE_STATE_DIR,LD_PRELOAD,PATH,PYTHONSTARTUP" {
		t.Errorf("EnvOverrides = %q", got)
	}
	for _, tc := range []struct {
		path  string
		layer Layer
	}{{".gemini/settings.json", Project}, {".claude/settings.json", User}} {
		if f, _ := parse(tc.path, src, tc.layer, Native); len(f.EnvOverrides) != 0 {
			t.Errorf("%s (%s): EnvOverrides = %v", tc.path, tc.layer, f.EnvOverrides)
		}
	}
}

// TestGuardEnvNodeOptions: NODE_OPTIONS counts only when it can load code.
func TestGuardEnvNodeOptions(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]bool{
		"--max-old-space-size=4096":                false,
		"--enable-source-maps --no-warnings":       false,
		"--unhandled-rejections=strict":            false,
		"--unhandled-rejections=none":              true, // a crashed async guard exits 0 (red team round 36)
		"--unhandled-rejections=warn":              true,
		"--require ./x.js":                         true,
		"-r ./x.js":                                true,
		"--import=./x.mjs --max-old-space-size=64": true,
		"--loader ./l.mjs":                         true,
	} {
		if got := GuardEnv("NODE_OPTIONS", value); got != want {
			t.Errorf("NODE_OPTIONS=%q: %v, want %v", value, got, want)
		}
	}
}

// TestCanonicalJSON: only the blanks between tokens go; keys keep their order and strings
// their escapes.
func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	if got := string(canonicalJSON([]byte("{ \"b\": 1,\n  \"a\": [1, 2.0, \"x y\\u0041\"] }"))); got != `{"b":1,"a":[1,2.0,"x y\u0041"]}` {
		t.Errorf("canonical = %s", got)
	}
}

// TestGuardEnvClass: exported bash functions (and any name that is no shell identifier),
// git's code and repository variables count; ordinary names do not (stop 25 red team 26).
func TestGuardEnvClass(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"BASH_FUNC_grep%%": true, "BASH_FUNC_x()": true, "a-b": true, "1X": true, "": true,
		"GIT_SSH_COMMAND": true, "GIT_CONFIG_COUNT": true, "GIT_CONFIG_KEY_0": true, "GIT_DIR": true,
		"http_proxy": false, "NODE_ENV": false, "GIT_AUTHOR_NAME": false, "CLAUDE_CODE_USE_BEDROCK": false,
		// Red team round 40: Claude Code's PowerShell tool takes shell commands past the
		// Bash guards.
		"CLAUDE_CODE_USE_POWERSHELL_TOOL": true,
		// Red team round 45: the prefix Claude Code runs every shell-form hook command with
		// ran in hookcore's place.
		"CLAUDE_CODE_SHELL_PREFIX": true,
		// Red team round 42: a repository's .curlrc made a curl guard print "allow".
		"CURL_HOME": true, "XDG_CONFIG_HOME": true, "WGETRC": true, "RIPGREP_CONFIG_PATH": true,
	} {
		if got := GuardEnv(name, "x"); got != want {
			t.Errorf("GuardEnv(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestNetworkEnv: where hookcore's own network clients go (stop 28); ordinary names, and the
// guard variables, are not in it.
func TestNetworkEnv(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"HTTPS_PROXY": true, "https_proxy": true, "NO_PROXY": true, "SSL_CERT_FILE": true,
		"NODE_TLS_REJECT_UNAUTHORIZED": true, "OPENAI_BASE_URL": true, "ANTHROPIC_BASE_URL": true,
		"OTEL_EXPORTER_OTLP_ENDPOINT": true, "OTEL_EXPORTER_OTLP_HEADERS": true,
		"OPENAI_API_KEY": false, "NODE_ENV": false, "PYTHONPATH": false, "DATABASE_URL": false,
	} {
		if got := NetworkEnv(name); got != want {
			t.Errorf("NetworkEnv(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestGuardEnvCodec: PYTHONIOENCODING is refused unless its codec is UTF-8 (red team round
// 30: unicode_escape made a Python guard read a second "command" key the model had written
// inside its command, and approve rm -rf); GREP_OPTIONS always (BSD grep reads it).
func TestGuardEnvCodec(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]bool{
		"utf-8": false, "UTF8": false, "utf_8": false, "utf-8-sig": false, "utf-8:surrogateescape": false,
		":replace": false, "": false,
		"unicode_escape": true, "raw-unicode-escape": true, "utf-7": true, "utf-16": true, "latin-1": true,
		"unicode_escape:strict": true,
	} {
		if got := GuardEnv("PYTHONIOENCODING", value); got != want {
			t.Errorf("GuardEnv(PYTHONIOENCODING, %q) = %v, want %v", value, got, want)
		}
	}
	if !GuardEnv("GREP_OPTIONS", "-v") {
		t.Error("GREP_OPTIONS is allowed")
	}
	// Where locales are loaded from: a repository's own compiled locale, named en_US, had a
	// unicode_escape codeset (red team round 31).
	for _, name := range []string{"LOCPATH", "PATH_LOCALE", "NLSPATH", "I18NPATH", "LOCALE_ARCHIVE", "LOCALE_ARCHIVE_2_27",
		"PS4", "CDPATH", "GLOBIGNORE", "TMOUT", "NODE_ICU_DATA"} {
		if !GuardEnv(name, ".locale") {
			t.Errorf("GuardEnv(%s) = false", name)
		}
	}
	// A locale whose codeset takes an ASCII byte into a character (GBK, Big5, Shift_JIS)
	// is the same attack by another name.
	for value, want := range map[string]bool{
		"en_US.UTF-8": false, "C.UTF-8": false, "C": false, "POSIX": false, "": false, "de_DE.utf8@euro": false, "en_US": false, "fr_FR.ISO-8859-1": true,
		"zh_CN.GBK": true, "zh_TW.Big5": true, "ja_JP.SJIS": true, "zh_TW": true, "ja_JP.eucJP": true,
	} {
		for _, name := range []string{"LANG", "LC_ALL", "LC_CTYPE"} {
			if got := GuardEnv(name, value); got != want {
				t.Errorf("GuardEnv(%s, %q) = %v, want %v", name, value, got, want)
			}
		}
	}
}

// TestEnvBehindBOM: Claude Code reads a settings file behind a UTF-8 byte order mark, so its
// env is checked there too (stop 25 red team 26: the mark hid a PYTHONPATH).
func TestEnvBehindBOM(t *testing.T) {
	t.Parallel()
	f, _ := parse(".claude/settings.json", []byte("\ufeff{\"env\": {\"PYTHONPATH\": \"evil\"}}"), Project, Native)
	if !f.EnvChecked || strings.Join(f.EnvOverrides, ",") != "PYTHONPATH" {
		t.Errorf("EnvChecked %v, EnvOverrides %v", f.EnvChecked, f.EnvOverrides)
	}
	dir := t.TempDir()
	for src, want := range map[string]string{
		"\ufeff{\"env\": {\"PYTHONPATH\": \"evil\"}}": "PYTHONPATH",
		"{\"env\": {\"PYTHONPATH\": \"evil\"},}":      "error", // not strict JSON, mentions env
		"{\"permissions\": {},}":                      "",      // not strict JSON, no env
	} {
		p := filepath.Join(dir, "s.json")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		over, err := SettingsEnvOverrides(p, 1<<20)
		got := strings.Join(over, ",")
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%q: %q (%v), want %q", src, got, err, want)
		}
	}
}

// TestGeminiByteOrderMarkIsBound: a byte order mark decides whether Gemini CLI reads a
// settings file (it refuses one that has it, and hookcore then does not apply its
// hooksConfig), so the grant binds it: removing it changes the digest (red team round 29:
// the grant held, and the file's hooksConfig.disabled switched the user's guard off). A
// Claude Code settings file's mark is still no change (Claude Code reads such a file).
func TestGeminiByteOrderMarkIsBound(t *testing.T) {
	t.Parallel()
	const body = `{"hooksConfig": {"disabled": ["user-guard"]}}`
	hash := func(path, src string) string {
		f, _ := ParseDialect(path, []byte(src), Project, dialectOf(path))
		h, _ := f.TrustHash()
		return h
	}
	if hash("/w/.gemini/settings.json", "\ufeff"+body) == hash("/w/.gemini/settings.json", body) {
		t.Error("Gemini: the byte order mark is not bound")
	}
	if hash("/w/.claude/settings.json", "\ufeff"+body) != hash("/w/.claude/settings.json", body) {
		t.Error("Claude Code: the byte order mark changed the binding")
	}
}

func dialectOf(path string) Dialect {
	if isGeminiSettings(path) {
		return Gemini
	}
	return Nested
}
