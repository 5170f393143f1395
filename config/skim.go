package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// skim is skimObject; tests compare a parse without it.
var skim = skimObject

// readTopKeys are the top-level keys of a config file whose values parse reads; the values of
// the others are skimmed (skimJSON). "<<" stays too: were the YAML parser to take a quoted
// "<<" for a merge key, its value would be read.
var readTopKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"hooks": true, "disable_all_hooks": true, "disableAllHooks": true, "parallel": true,
		"allowManagedHooksOnly": true, "audit": true, "<<": true,
		"hooksConfig": true, // Gemini CLI's switches (geminiHooksConfig)
	}
})

// skimObject returns data with the values of its top-level keys that parse does not read
// (readTopKeys) replaced by a 0, their line breaks and as many blanks as the value's last
// line had runes, when data is a JSON object that json.Valid accepts (obj, isJSONObject,
// which the caller has checked); data itself otherwise. The YAML parser then builds no tree
// for, and scans hardly a byte of, what hookcore never looks at — a Claude Code
// settings.json's permissions, env, statusLine, enabledPlugins — and every line and column it
// reports outside them is the one in data (the config package reads no parser offsets). The
// keys stay, so a near-miss of a hookcore key is still warned about. A value holding U+0085,
// U+2028 or U+2029, which a YAML parser may count as line breaks, is left as it is. The YAML
// parser's refusals of what it no longer reads go with it: a duplicate key inside
// "permissions", which Claude Code's JSON.parse takes, no longer fails the file.
//
// Issue 9: a hook process reads ~/.claude/settings.json at every event, and the YAML parser
// took 0.5 ms of a 2.5 ms process for a 6 KB file of permission rules.
func skimObject(data []byte, obj bool) []byte {
	if !obj {
		return data
	}
	var out []byte
	last := 0
	// blank writes data[last:start], then data[start:end] as a 0 (when zero) or nothing,
	// its line breaks and as many blanks as its last line had runes after them.
	blank := func(start, end int, zero bool) {
		if out == nil {
			out = make([]byte, 0, len(data))
		}
		out = append(out, data[last:start]...)
		if zero {
			out = append(out, '0') // over the value's first byte, which is ASCII
			start++
		}
		// The line breaks are ASCII, never inside a multi-byte rune: the runes after the last
		// one are counted from it (no string(data[start:end]) copy, stop 34).
		lineStart := start
		for i := start; i < end; i++ {
			if c := data[i]; c == '\n' || c == '\r' {
				out = append(out, c)
				lineStart = i + 1
			}
		}
		for after := utf8.RuneCount(data[lineStart:end]); after > 0; after-- {
			out = append(out, ' ')
		}
		last = end
	}
	seen := map[string]bool{}
	topMembers(data, func(key string, ks, vs, ve int) {
		switch {
		case readTopKeys()[key]:
		case seen[key]:
			// A key that JSON.parse takes twice (the last wins) and the YAML parser refuses:
			// the member goes, with the comma before it (it is not the first member), which
			// follows the previous member's value, where any earlier blanking ended.
			start := ks - 1
			for data[start] != ',' {
				start--
			}
			if blankable(data[start:ve]) {
				blank(start, ve, false)
			}
		default:
			seen[key] = true
			if blankable(data[vs:ve]) {
				blank(vs, ve, true)
			}
		}
	})
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// isJSONObject reports whether data is one JSON object that json.Valid accepts.
func isJSONObject(data []byte) bool {
	i := skipJSONSpace(data, 0)
	return i < len(data) && data[i] == '{' && json.Valid(data)
}

// topMembers calls f with each member of data, a JSON object json.Valid accepts (see
// isJSONObject), in order: its key, decoded, where the key starts, and where its value
// starts and ends.
func topMembers(data []byte, f func(key string, ks, vs, ve int)) {
	i := skipJSONSpace(data, 0) + 1
	for {
		i = skipJSONSpace(data, i)
		if data[i] == '}' {
			return
		}
		ks := i
		i = skipJSONString(data, i)
		key := jsonKey(data[ks:i])
		vs := skipJSONSpace(data, skipJSONSpace(data, i)+1) // past ':'
		i = skipJSONValue(data, vs)
		f(key, ks, vs, i)
		i = skipJSONSpace(data, i)
		if data[i] != ',' {
			return // '}'
		}
		i++
	}
}

// topJSONValue returns the value of key in data, a JSON object json.Valid accepts (see
// isJSONObject): the last one when the key is there twice, as JavaScript's JSON.parse keeps
// it; the key is compared exactly, as JSON.parse does.
func topJSONValue(data []byte, key string) (v []byte, ok bool) {
	topMembers(data, func(k string, _, vs, ve int) {
		if k == key {
			v, ok = data[vs:ve], true
		}
	})
	return v, ok
}

// jsonKey decodes a JSON string token (quotes included) of valid JSON.
func jsonKey(tok []byte) string {
	for _, c := range tok {
		if c == '\\' {
			var s string
			_ = json.Unmarshal(tok, &s) // valid JSON: cannot fail
			return s
		}
	}
	return string(tok[1 : len(tok)-1])
}

// blankable reports whether v holds none of the runes a YAML parser may take for a line
// break besides \n and \r.
func blankable(v []byte) bool {
	for len(v) > 0 {
		r, n := utf8.DecodeRune(v)
		if r == 0x85 || r == 0x2028 || r == 0x2029 {
			return false
		}
		v = v[n:]
	}
	return true
}

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipJSONString returns the index after the string that starts at data[i] ('"').
func skipJSONString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipJSONValue returns the index after the value that starts at data[i], in valid JSON.
func skipJSONValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipJSONString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipJSONString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// trustKey reports whether key is a top-level key of a settings file that a trust grant binds
// (File.TrustHash): what parse reads (readTopKeys), and the agent's keys that decide which
// hooks run and how (stop 25 red team: Gemini CLI's hooksConfig.enabled switched every hook
// off, hookcore's entries included, without the grant going stale).
func trustKey(key string) bool {
	switch key {
	case "enabledPlugins", // the plugin loader reads it
		"hooksConfig",                                   // Gemini CLI: hooks enabled, and disabled by name
		"allowedHttpHookUrls", "httpHookAllowedEnvVars", // Claude Code: which http hooks run, with what
		"env": // Claude Code: the environment of every hook, hookcore's hook command included
		return true
	}
	return readTopKeys()[key]
}

// boundMembers sets f's trust binding (File.TrustHash) from data, for a Claude Code or Gemini
// CLI settings file that is a JSON object: the SHA-256 of its trustKey members, each as its
// key and its value without blanks (canonicalJSON), in file order; "" when there are none.
// The compact form makes a reformatted file the same one: Claude Code rewrites its settings file with its own
// indentation when it saves a permission rule (stop 25 trial: a hook entry written on one
// line, re-indented, made the grant stale and blocked every call).
func boundMembers(f *File, data []byte) {
	// Claude Code reads a settings file behind a UTF-8 byte order mark (anthropics/claude-code
	// #81355, 2.1.219), so its env and hooks count there too (stop 25 red team: a BOM hid a
	// PYTHONPATH from the env check). Gemini CLI refuses such a file, and hookcore then
	// does not apply its hooksConfig: the mark changes what the file does, so a Gemini file
	// with one is bound whole (red team round 29: a granted file's mark, removed, switched
	// the user's Gemini guard off under a grant that still held).
	claude := IsClaudeSettings(f.Path)
	if claude {
		data = bytes.TrimPrefix(data, []byte("\ufeff"))
	}
	if !isJSONObject(data) {
		return
	}
	f.EnvChecked = claude
	h := sha256.New()
	h.Write([]byte("hookcore trust: canonical members\n"))
	n := 0
	topMembers(data, func(key string, ks, vs, ve int) {
		if trustKey(key) {
			n++
			v := canonicalJSON(data[vs:ve])
			fmt.Fprintf(h, "%q %d\n", key, len(v))
			h.Write(v)
		}
		if key == "env" && claude {
			f.EnvNames, f.EnvOverrides = envOf(data[vs:ve])
		}
	})
	f.boundSet = true
	if n > 0 {
		f.bound = hex.EncodeToString(h.Sum(nil))
	}
}

// canonicalJSON returns raw (valid JSON) without the blanks between its tokens
// (json.Compact): the form Claude Code's re-indented rewrite of a settings file shares with
// the original, which JSON.stringify writes with the keys in the order they were read and
// strings escaped as JSON.stringify escapes them (a file with other escapes binds again once
// rewritten). Sorting keys or decoding strings would cost a hook process a decode of the
// hooks at every event, and a decoder's string rules are not JavaScript's.
func canonicalJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// envOf returns the names, sorted, that a settings file's env object (raw JSON) sets
// (names), and those of them it sets to a value that changes what hookcore's hook process or
// the guards it runs read or load (overrides, GuardEnv). Claude Code puts its settings' env
// into every hook's environment, hookcore's hook command included.
func envOf(raw []byte) (names, overrides []string) {
	var env map[string]json.RawMessage
	if json.Unmarshal(raw, &env) != nil {
		return nil, nil
	}
	for k, v := range env {
		names = append(names, k)
		var value string
		if json.Unmarshal(v, &value) != nil {
			value = string(v) // not a string: judged by its text
		}
		if GuardEnv(k, value) {
			overrides = append(overrides, k)
		}
	}
	sort.Strings(names)
	sort.Strings(overrides)
	return names, overrides
}

// UsesNetwork reports whether f has an enabled hook that goes on the network: one hookcore
// runs with its own clients (http, prompt: an LLM judge, agent, mcp_tool, rego), or a
// command hook whose line names curl or wget or holds a URL (red team round 42: a curl
// guard reads the proxy and CA variables as hookcore's clients do) (NetworkEnv).
func (f *File) UsesNetwork() bool {
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if !h.Enabled {
			continue
		}
		switch h.Action.Type {
		case TypeHTTP, TypePrompt, TypeAgent, TypeMCPTool, TypeRego:
			return true
		case TypeCommand:
			line := h.Action.Command + " " + strings.Join(h.Action.Args, " ")
			if strings.Contains(line, "curl") || strings.Contains(line, "wget") || strings.Contains(line, "://") {
				return true
			}
		}
	}
	return false
}

// ErrUncheckedEnv: a settings file that is not a JSON object mentions "env".
var ErrUncheckedEnv = errors.New(`not strict JSON, and it mentions "env"`)

// SettingsEnvOverrides reads the Claude Code settings file at path (at most max bytes, as a
// regular file) and returns the variables its env sets that GuardEnv names, sorted: nil
// when the file is not a JSON object (after a byte order mark) and does not mention "env".
// Errors: those of regularfile.Read (fs.ErrNotExist for a missing file; ErrTooLarge);
// ErrUncheckedEnv.
func SettingsEnvOverrides(path string, max int64) ([]string, error) {
	_, over, err := SettingsEnv(path, max)
	return over, err
}

// SettingsEnv is SettingsEnvOverrides that also returns every variable the env sets
// (names, sorted).
func SettingsEnv(path string, max int64) (names, overrides []string, err error) {
	data, _, err := regularfile.Read(path, max)
	if err != nil {
		return nil, nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // Claude Code reads it (boundMembers)
	if !isJSONObject(data) {
		if bytes.Contains(data, []byte(`"env"`)) {
			// Not strict JSON, yet an env may be read by a laxer reader than JSON.parse:
			// unknown, so not taken as none.
			return nil, nil, ErrUncheckedEnv
		}
		return nil, nil, nil
	}
	raw, ok := topJSONValue(data, "env")
	if !ok {
		return nil, nil, nil
	}
	names, overrides = envOf(raw)
	return names, overrides, nil
}
