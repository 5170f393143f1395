package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/google/go-cmp/cmp"
)

// skimCases are JSON config files whose parse must not change when skimJSON blanks what
// hookcore does not read: multi-byte runes before a hook on the same line (minified), keys
// written with escapes, near-miss keys, brackets and quotes inside strings, errors inside
// the hooks (their line:col), documents skimJSON leaves alone (not strict JSON, JSONC, not
// an object), and U+2028 in a value.
var skimCases = map[string]string{
	"claude": `{
  "permissions": {"allow": ["Bash(npm run test:*)", "Read(/home/ü/**)"], "deny": ["Bash(rm -rf *)"]},
  "env": {"A": "b\"c]}{", "Ω": "日本語"},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": "x"}]}]},
  "statusLine": {"type": "command", "command": "~/s.sh"}
}`,
	"minified":   `{"env":{"Ω":"日本語 ünïcödé"},"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"comand","command":"true"}]}]},"x":[1,2,{"y":"]"}]}`,
	"escapedKey": `{"ho\u006fks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}, "perm\u0069ssions": {"allow": ["é"]}}`,
	"nearMiss":   `{"hook": {"Stop": []}, "disableAllHook": true, "other": {"deep": [[[["x"]]]]}}`,
	"disable":    `{"disableAllHooks": true, "enabledPlugins": {"a@b": true}, "hooks": {}}`,
	"native":     `{"hooks": [{"id": "a", "event": "pre_tool_use", "action": {"type": "command", "command": "true"}}], "event": "stop", "unknown": {"é": 1}}`,
	"nativeBad":  `{"envv": "é", "hooks": [{"id": "a", "event": "pre_tool_use", "if": "tool ==", "action": {"type": "command", "command": "true"}}]}`,
	"trailing":   "{\"env\": {\"a\": 1,}, \"hooks\": {}}",
	"jsonc":      "{\n  // comment\n  \"env\": {\"é\": 1},\n  \"hooks\": {\"Stop\": []}\n}",
	"array":      `[{"hooks": {}}]`,
	"lineSep":    "{\"env\": {\"a\": \"x\u2028y\"}, \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\"}]}]}}",
	"crlf":       "{\r\n\"env\": {\r\n\"é\": [1,\r\n2]},\r\n\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\"}]}]}}",
	"numbers":    `{"n": -1.5e400, "t": true, "f": false, "z": null, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1e400}]}]}}`,
	"empty":      `{}`,
}

// TestSkimKeepsTheParse: every skimCases file, under each JSON path, parses to the same
// File and the same problems, positions included, with and without skimJSON.
func TestSkimKeepsTheParse(t *testing.T) { // not parallel: it swaps skim
	for name, src := range skimCases {
		for _, path := range []string{"/p/.claude/settings.json", "/p/.gemini/settings.json", "/p/.cursor/hooks.json", "/p/.github/hooks/a.json", "/p/.codex/hooks.json", "/p/.hookcore/hooks.yaml"} {
			skimmed, skimmedProbs := parseData(path, []byte(src), Project)
			skim = func(b []byte, _ bool) []byte { return b }
			whole, wholeProbs := parseData(path, []byte(src), Project)
			skim = skimObject
			if diff := cmp.Diff(whole, skimmed, cmp.AllowUnexported(File{})); diff != "" {
				t.Errorf("%s as %s: file (-whole +skimmed):\n%s", name, path, diff)
			}
			if diff := cmp.Diff(wholeProbs, skimmedProbs); diff != "" {
				t.Errorf("%s as %s: problems (-whole +skimmed):\n%s", name, path, diff)
			}
		}
	}
}

// TestSkimBlanks: what skimJSON blanks and what it leaves.
func TestSkimBlanks(t *testing.T) {
	t.Parallel()
	got := string(skimJSON([]byte(skimCases["claude"])))
	for _, gone := range []string{"permissions\": {", "npm", "日本語", "statusLine\": {"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q was not skimmed:\n%s", gone, got)
		}
	}
	if !strings.Contains(got, `"hooks": {"PreToolUse": [{"matcher": "Bash"`) {
		t.Errorf("hooks were skimmed:\n%s", got)
	}
	for _, name := range []string{"trailing", "jsonc", "array", "empty"} {
		if got := string(skimJSON([]byte(skimCases[name]))); got != skimCases[name] {
			t.Errorf("%s: changed to %q", name, got)
		}
	}
	if got := string(skimJSON([]byte(skimCases["lineSep"]))); !strings.Contains(got, "x\u2028y") {
		t.Errorf("a value with U+2028 was skimmed: %q", got)
	}
}

// FuzzSkimJSON: skimJSON keeps valid JSON valid, keeps every line break, leaves the top-level values parse reads byte for byte, and changes what a Claude
// Code settings file parses to only by dropping the YAML parser's refusals of what it
// skimmed. Not parallel: it swaps skim.
func FuzzSkimJSON(f *testing.F) {
	for _, src := range skimCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := string(skimJSON([]byte(src)))
		if out == src {
			return
		}
		if !json.Valid([]byte(src)) || !json.Valid([]byte(out)) {
			t.Fatalf("changed, but in or out is not valid JSON: %q -> %q", src, out)
		}
		breaks := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return r
				}
				return -1
			}, s)
		}
		if breaks(out) != breaks(src) {
			t.Fatalf("line breaks changed: %q -> %q", src, out)
		}
		var a, b map[string]json.RawMessage
		if json.Unmarshal([]byte(src), &a) != nil || json.Unmarshal([]byte(out), &b) != nil {
			t.Fatalf("not an object: %q -> %q", src, out)
		}
		for k := range readTopKeys() {
			if string(a[k]) != string(b[k]) {
				t.Fatalf("%s changed: %q -> %q", k, a[k], b[k])
			}
		}
		const path = "/p/.claude/settings.json"
		skimmed, skimmedProbs := parseData(path, []byte(src), Project)
		skim = func(b []byte, _ bool) []byte { return b }
		whole, wholeProbs := parseData(path, []byte(src), Project)
		skim = skimObject
		// The YAML parser's own refusals inside a skimmed value (a duplicate key, which
		// JSON.parse takes) go, and then the file loads (with the warnings of a loaded
		// file); nothing else changes.
		has := func(l ErrorList, p *Problem) bool {
			return slices.ContainsFunc(l, func(q *Problem) bool { return cmp.Equal(p, q) })
		}
		// The parser stops at its first refusal: one inside a skimmed value may have hidden
		// a later one, which the skimmed parse reports.
		stopped := slices.ContainsFunc(wholeProbs, func(p *Problem) bool {
			return strings.HasPrefix(p.Msg, "syntax error") && !has(skimmedProbs, p)
		})
		for _, p := range skimmedProbs {
			if !p.Warning && !has(wholeProbs, p) && !stopped {
				t.Fatalf("%q: skimming added %v", src, p)
			}
		}
		if !cmp.Equal(wholeProbs, skimmedProbs) {
			if !slices.ContainsFunc(wholeProbs, func(p *Problem) bool { return !p.Warning && !has(skimmedProbs, p) }) {
				t.Fatalf("%q: problems changed, no refusal went (-whole +skimmed):\n%s", src, cmp.Diff(wholeProbs, skimmedProbs))
			}
			return
		}
		if diff := cmp.Diff(whole, skimmed, cmp.AllowUnexported(File{})); diff != "" {
			t.Fatalf("%q: file (-whole +skimmed):\n%s", src, diff)
		}
	})
}

// TestEnabledPluginsReadsTheKeyAsJSONParse: enabledPlugins is read as Claude Code's
// JSON.parse reads it: the key exactly (encoding/json matched "EnabledPlugins" too), the last
// of two, and only from a JSON object.
func TestEnabledPluginsReadsTheKeyAsJSONParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"case.json":  `{"EnabledPlugins": {"case@m": true}, "permissions": {"allow": ["Bash(x)"]}}`,
		"twice.json": `{"enabledPlugins": {"first@m": true}, "env": {}, "enabledPlugins": {"second@m": true, "off@m": false, "pinned@m": {"version": "1"}}}`,
		"array.json": `[{"enabledPlugins": {"array@m": true}}]`,
		"bad.json":   `{"enabledPlugins": {"bad@m": true},}`,
	}
	var paths []LayerPath
	for name, src := range files {
		paths = append(paths, LayerPath{Path: write(t, dir, name, src), Layer: User})
	}
	if diff := cmp.Diff([]string{"pinned@m", "second@m"}, EnabledPlugins(paths, true)); diff != "" {
		t.Errorf("enabled (-want +got):\n%s", diff)
	}
}

// TestLimitsGuardWhatIsParsed: the caps of CheckLimits apply to what the YAML parser reads
// of a JSON file: 600 keys under "env", which Claude Code takes and hookcore never reads, no
// longer fail ~/.claude/settings.json (they did: a failed settings file blocks every call);
// 600 under "hooks" still do, and the size cap counts the whole file.
func TestLimitsGuardWhatIsParsed(t *testing.T) {
	t.Parallel()
	many := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "    \"K%d\": []", i)
		}
		return b.String()
	}
	const path = "/p/.claude/settings.json"
	f, probs := parseData(path, []byte("{\n  \"env\": {\n"+many(600)+"\n  },\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}"), User)
	if f.Failed || len(f.Hooks) != 1 || len(probs) != 0 {
		t.Errorf("600 env keys: failed %v, %d hooks, problems %v", f.Failed, len(f.Hooks), probs)
	}
	f, probs = parseData(path, []byte("{\n  \"hooks\": {\n"+many(600)+"\n  }\n}"), User)
	if !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "500") || probs[0].Pos.Line == 0 {
		t.Errorf("600 hooks keys: failed %v, problems %v", f.Failed, probs)
	}
	big := "{\"env\": \"" + strings.Repeat("x", MaxFileSize) + "\", \"hooks\": {}}"
	if f, probs = parseData(path, []byte(big), User); !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "limit is 512 KiB") {
		t.Errorf("over the size cap: failed %v, problems %v", f.Failed, probs)
	}
}

// TestEmptyFirstDocument: "---" twice before the hooks: the YAML parser returns one empty
// document and drops the rest, and the file loaded with no hooks and no warning (red team,
// stop 24). Now it is an error at the first line of content; a file of comments and markers
// only is still an empty config.
func TestEmptyFirstDocument(t *testing.T) {
	t.Parallel()
	const hooks = "hooks:\n  - id: a\n    event: pre_tool_use\n    action: {type: command, command: \"true\"}\n    reject: true\n"
	for _, lead := range []string{"---\n---\n", "--- # c\n---\n", "---\n\n---\n", "--- \r\n--- \r\n", "# c\n---\n---\n", "---\n---\n---\n"} {
		f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(lead+hooks), User)
		if len(f.Hooks) == 0 && (!f.Failed || probs.Errors() != 1) {
			t.Errorf("%q: %d hooks, failed %v, problems %v", lead, len(f.Hooks), f.Failed, probs)
		}
	}
	for _, src := range []string{"", "# nothing yet\n", "---\n# c\n...\n"} {
		if f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(src), User); f.Failed || len(probs) != 0 {
			t.Errorf("%q: failed %v, problems %v", src, f.Failed, probs)
		}
	}
}

// TestByteOrderMark: a config file that opens with a UTF-8 byte order mark (Windows editors
// write one) loads its hooks. The YAML parser read "\ufeffhooks" as an unknown key, and the
// file ran nothing, with a warning only: a policy saved by Notepad let every call through.
// A .json file with one still gets the strict-JSON warning: Claude Code's JSON.parse refuses
// it.
func TestByteOrderMark(t *testing.T) {
	t.Parallel()
	const bom = "\ufeff"
	f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(bom+"hooks:\n  - id: a\n    event: pre_tool_use\n    action: {type: command, command: \"true\"}\n    reject: true\n  - id: b\n    event: stop\n    action: {type: command, command: \"true\"}\n    bogus: 1\n"), User)
	if f.Failed || len(f.Hooks) != 2 || len(probs) != 1 || probs[0].Pos.Line != 9 || probs[0].Pos.Col != 5 {
		t.Errorf("yaml: failed %v, %d hooks, problems %v", f.Failed, len(f.Hooks), probs)
	}
	f, probs = parseData("/p/.claude/settings.json", []byte(bom+`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`), User)
	if f.Failed || len(f.Hooks) != 1 || len(probs) != 1 || !strings.Contains(probs[0].Msg, "not strict JSON") {
		t.Errorf("json: failed %v, %d hooks, problems %v", f.Failed, len(f.Hooks), probs)
	}
}

// TestMisspelledHooksKeyFails: a hookcore file whose hooks sit under a key hookcore does not
// know, with no hooks (or empty ones), does not load (it loaded with a warning and ran nothing: under an
// agent, which shows no warning, the guard was off); beside a hooks key, an unknown key is
// still a warning.
func TestMisspelledHooksKeyFails(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"Hooks:\n  - id: a\n    event: pre_tool_use\n    action: {type: command, command: \"true\"}\n    reject: true\n",
		"hook:\n  - id: a\n",
		`{"hoooks": [{"id": "a", "event": "stop", "action": {"type": "command", "command": "true"}}]}`,
	} {
		f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(src), User)
		if !f.Failed || probs.Errors() != 1 {
			t.Errorf("%q: failed %v, problems %v", src, f.Failed, probs)
		}
	}
	f, probs := parseData("/p/.hookcore/hooks.yaml", []byte("hooks: [{id: a, event: stop, action: {type: command, command: \"true\"}}]\nhoks: 1\n"), User)
	if f.Failed || probs.Errors() != 0 || len(probs) != 1 {
		t.Errorf("beside hooks: failed %v, problems %v", f.Failed, probs)
	}
	// The hooks key there, but empty, or null (red team, stop 24).
	for _, src := range []string{"hooks:\nhook:\n  - id: a\n", "hooks: ~\nHooks: []\n", "hooks: {}\nhook: 1\n", "hooks: []\nhooks_: 1\n"} {
		if f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(src), User); !f.Failed || probs.Errors() != 1 {
			t.Errorf("%q: failed %v, problems %v", src, f.Failed, probs)
		}
	}
	// A JSON file named with --config, whose hooks key is written wrong: named as a policy,
	// it is one (Claude Code's own settings, discovered, are left as Claude Code reads them).
	for _, src := range []string{
		`{"Hooks": [{"id": "a", "event": "pre_tool_use", "action": {"type": "command", "command": "true"}, "reject": true}]}`,
		`{"hook": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}`,
		`{"hooks": null, "Hooks": {"PreToolUse": []}}`,
	} {
		if f, probs := parseData("/tmp/policy.json", []byte(src), Explicit); !f.Failed || probs.Errors() != 1 {
			t.Errorf("named %q: failed %v, problems %v", src, f.Failed, probs)
		}
		if f, probs := parseData("/p/.claude/settings.json", []byte(src), Project); f.Failed || probs.Errors() != 0 {
			t.Errorf("discovered %q: failed %v, problems %v", src, f.Failed, probs)
		}
	}
	for _, path := range []string{"/p/.claude/settings.json", "/p/.minicode/config.yaml"} {
		if f, probs := parseData(path, []byte("{\"model\": \"opus\", \"permissions\": {}}"), User); f.Failed || probs.Errors() != 0 {
			t.Errorf("%s without hooks: failed %v, problems %v", path, f.Failed, probs)
		}
	}
}

// TestStrictJSONTakesWhatJSONParseTakes: a number out of float64's range is strict JSON
// (JSON.parse reads it as Infinity); decoding into any refused it, and the file was warned
// about as "not strict JSON".
func TestStrictJSONTakesWhatJSONParseTakes(t *testing.T) {
	t.Parallel()
	if probs := strictJSON("/p/s.json", []byte(`{"n": 1e400, "hooks": {}}`), Nested); len(probs) != 0 {
		t.Errorf("problems %v", probs)
	}
	if probs := strictJSON("/p/s.json", []byte(`{"n": 1,}`), Nested); len(probs) != 1 || probs[0].Pos.Col != 9 {
		t.Errorf("trailing comma: problems %v", probs)
	}
}

// TestGateKeyWrittenWrong: a hook whose reject or on_error is misspelled, capitalised or
// written under action: is a broken entry, not a hook that runs and allows (red team, stop
// 24: "rejct: true" ran the hook, did not reject, and let rm -rf through with a warning);
// other unknown keys stay warnings.
func TestGateKeyWrittenWrong(t *testing.T) {
	t.Parallel()
	const head = "hooks:\n  - id: a\n    event: pre_tool_use\n    action: {type: command, command: \"echo no\""
	for _, src := range []string{
		head + "}\n    rejct: true\n",
		head + "}\n    Reject: true\n",
		head + ", reject: true}\n",
		head + "}\n    onerror: block\n",
		head + ", on_error: block}\n",
		head + "}\n    exit_code: {1: block}\n", // red team round 20
		head + ", exit_codes: {1: block}}\n",
		head + "}\n    block: true\n", // new-user trial, stop 24
		head + "}\n    deny: true\n",
		head + "}\n    abort: true\n", // red team round 23
		head + "}\n    decision: block\n",
		head + "}\n    stop: true\n", // stop 25, noticed
		head + "}\n    halt: true\n",
		head + "}\n    blockk: true\n", // new-user trial, stop 30: near-misses of those words
		head + "}\n    denyy: true\n",
		head + "}\n    prevents: true\n",
	} {
		f, probs := parseData("/p/.hookcore/hooks.yaml", []byte(src), User)
		if len(f.Hooks) != 0 || len(f.Broken) != 1 || probs.Errors() != 1 {
			t.Errorf("%q: %d hooks, %d broken, problems %v", src, len(f.Hooks), len(f.Broken), probs)
		}
	}
	f, probs := parseData("/p/.codebot/settings.json", []byte(`{"hooks": {"PreToolUse": [{"type": "command", "command": "exit 2", "rejct": true}]}}`), User)
	if len(f.Hooks) != 0 || probs.Errors() != 1 {
		t.Errorf("codebot: %d hooks, problems %v", len(f.Hooks), probs)
	}
	for _, key := range []string{"step", "top", "descripton"} { // near "stop" and "decision" as written, no misspelling of them
		f, probs = parseData("/p/.hookcore/hooks.yaml", []byte(head+"}\n    reject: true\n    "+key+": x\n"), User)
		if len(f.Hooks) != 1 || probs.Errors() != 0 || len(probs) != 1 {
			t.Errorf("%s: %d hooks, problems %v", key, len(f.Hooks), probs)
		}
	}
	f, probs = parseData("/p/.hookcore/hooks.yaml", []byte(head+"}\n    reject: true\n    descripton: x\n"), User)
	if len(f.Hooks) != 1 || probs.Errors() != 0 || len(probs) != 1 {
		t.Errorf("a near-miss of another key: %d hooks, problems %v", len(f.Hooks), probs)
	}
}

// TestDuplicateUnreadKey: a key hookcore does not read, written twice (JSON.parse takes the
// last; the YAML parser refused the file, and a settings file that fails blocks every gate
// event: red team, stop 24), no longer fails the file, wherever the second one is and
// however it is laid out; positions after it stay right. "hooks" twice still fails.
func TestDuplicateUnreadKey(t *testing.T) {
	t.Parallel()
	const hooks = `"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "comand": 1}]}]}`
	for _, src := range []string{
		`{"permissions": {"allow": []}, "permissions": {"allow": ["x"]}, ` + hooks + `}`,
		`{` + hooks + `, "env": {}, "env": {"a": "é"}}`,
		"{\n  \"env\": {},\n  \"env\": {\n    \"a\": \"é\"\n  },\n  \"env\": 1,\n  " + hooks + "\n}",
		"{\"a\": 1,\n\"a\"\n:\n2\n,\n" + hooks + "}",
	} {
		f, probs := parseData("/p/.claude/settings.json", []byte(src), User)
		if f.Failed || len(f.Hooks) != 1 || len(probs) != 1 || !strings.Contains(probs[0].Msg, `"comand"`) {
			t.Errorf("%q: failed %v, %d hooks, problems %v", src, f.Failed, len(f.Hooks), probs)
			continue
		}
		line := strings.Count(src[:strings.Index(src, `"comand"`)], "\n") + 1
		if probs[0].Pos.Line != line {
			t.Errorf("%q: comand reported at line %d, is at %d", src, probs[0].Pos.Line, line)
		}
	}
	f, _ := parseData("/p/.claude/settings.json", []byte(`{`+hooks+`, `+hooks+`}`), User)
	if !f.Failed {
		t.Errorf("hooks twice loads")
	}
}

// TestIfOnAnUnknownField: a condition on a field conditions do not have ("prompt", "command",
// "input.command") is warned about at its hook: it reads as empty (seed 004), so the hook
// never fired and `check` said nothing (red team round 20).
func TestIfOnAnUnknownField(t *testing.T) {
	t.Parallel()
	f, probs := parseData("/p/.hookcore/hooks.yaml", []byte("hooks:\n  - id: a\n    event: user_prompt_submit\n    if: 'prompt =~ /AKIA/ || input.command == x || args.command =~ /rm/ || tool == Bash || file_path ~= \"*.env\"'\n    action: {type: command, command: \"exit 2\"}\n"), User)
	if len(f.Hooks) != 1 || len(probs) != 2 || !strings.Contains(probs[0].Msg, `"prompt"`) || !strings.Contains(probs[1].Msg, `"input.command"`) || probs[0].Pos.Line != 4 || !probs[0].Warning {
		t.Errorf("%d hooks, problems %v", len(f.Hooks), probs)
	}
}

// TestNamedTOMLWithMisspelledHooks: a Codex config.toml named with --config whose hooks table
// is a near-miss of hooks fails to load (red team round 20: it ran nothing, silently); the
// same file found by discovery is read as Codex reads it.
func TestNamedTOMLWithMisspelledHooks(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"[[hook.PreToolUse]]\nmatcher = \"Bash\"\n[[hook.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"exit 2\"\n",
		"model = \"o3\"\n[[Hooks.PreToolUse]]\nmatcher = \"Bash\"\n",
	} {
		if f, probs := parseData("/p/.codex/config.toml", []byte(src), Explicit); !f.Failed || probs.Errors() != 1 {
			t.Errorf("named %q: failed %v, problems %v", src, f.Failed, probs)
		}
		if f, probs := parseData("/p/.codex/config.toml", []byte(src), User); f.Failed || probs.Errors() != 0 {
			t.Errorf("discovered %q: failed %v, problems %v", src, f.Failed, probs)
		}
	}
}

// TestUTF16Config: a policy saved as UTF-16 (Notepad's "Unicode") is refused with a message
// that names the encoding (new-user trial: "config must be a mapping ... not a string").
func TestUTF16Config(t *testing.T) {
	t.Parallel()
	for _, data := range [][]byte{{0xFF, 0xFE, 'h', 0, 'o', 0}, {'h', 0, 'o', 0, 'o', 0}, {0, 'h', 0, 'o'}} {
		f, probs := parseData("/p/.hookcore/hooks.yaml", data, User)
		if !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "UTF-16") {
			t.Errorf("% x: failed %v, problems %v", data, f.Failed, probs)
		}
	}
	if h := EncodingHint([]byte("hooks: []\n")); h != "" {
		t.Errorf("UTF-8: %q", h)
	}
	// Binary bytes with a NUL among them are not UTF-16 (new-user trial, stop 27).
	for _, data := range [][]byte{{0, 1, 2}, {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0}} {
		if h := EncodingHint(data); h != "" {
			t.Errorf("% x: %q, want no encoding hint", data, h)
		}
	}
}

// TestClaudeEventNamesAreExact: in Claude Code's settings files an event name is read as
// Claude Code reads it, exactly: "preToolUse" runs nothing there (observed with Claude Code
// 2.1.332 through peer-claude), and hookcore ran it (new-user trial, stop 24). Elsewhere any
// spelling stays an event.
func TestClaudeEventNamesAreExact(t *testing.T) {
	t.Parallel()
	src := []byte(`{"hooks": {"preToolUse": [{"hooks": [{"type": "command", "command": "exit 2"}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	for _, path := range []string{"/p/.claude/settings.json", "/p/.claude/settings.local.json", "/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d/a.json"} {
		f, probs := parseData(path, src, User)
		if len(f.Hooks) != 1 || f.Hooks[0].Event != "Stop" || len(probs) != 1 || !probs[0].Warning || !strings.Contains(probs[0].Msg, `did you mean "PreToolUse"`) {
			t.Errorf("%s: hooks %v, problems %v", path, f.Hooks, probs)
		}
	}
	if f, probs := parseData("/p/policy.json", src, Explicit); len(f.Hooks) != 2 || len(probs) != 0 {
		t.Errorf("policy.json: %d hooks, problems %v", len(f.Hooks), probs)
	}
}

// TestSetHooksKillScope: Set.Disabled and Set.Hooks read a kill switch as the Runner does
// (KillScope): codebot's switches off codebot's hooks, not the user's own; Claude Code's
// switches off everything; Cursor, Gemini CLI, Codex and Copilot CLI have no such switch,
// so theirs is a warning that switches nothing off (red team round 28: a project's
// .codex/hooks.json with disableAllHooks turned the user's Codex hooks off unannounced).
func TestSetHooksKillScope(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	guard := LayerPath{Path: write(t, dir, "home/.hookcore/hooks.yaml", "hooks:\n  - {id: g, event: pre_tool_use, action: {type: command, command: \"exit 2\"}}\n"), Layer: User}
	codebot := LayerPath{Path: write(t, dir, "home/.codebot/settings.json", `{"disableAllHooks": true, "hooks": {"PreToolUse": [{"type": "command", "command": "true"}]}}`), Layer: User}
	set, _ := Load([]LayerPath{guard, codebot})
	if set.Disabled || len(set.Hooks()) != 1 || set.Hooks()[0].ID != "g" {
		t.Errorf("codebot's switch: disabled %v, hooks %v", set.Disabled, set.Hooks())
	}
	for path, agent := range map[string]Dialect{
		"home/.cursor/hooks.json":    Cursor,
		"home/.gemini/settings.json": Gemini,
		"home/.codex/hooks.json":     Codex,
		"w/.github/hooks/a.json":     Copilot,
	} {
		src := map[Dialect]string{
			Cursor:  `{"version": 1, "disableAllHooks": true, "hooks": {"beforeShellExecution": [{"command": "true"}]}}`,
			Gemini:  `{"disableAllHooks": true, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}`,
			Codex:   `{"disableAllHooks": true, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}`,
			Copilot: `{"version": 1, "disableAllHooks": true, "hooks": {"preToolUse": [{"type": "command", "bash": "true"}]}}`,
		}[agent]
		f, probs := ParseDialect(write(t, dir, path, src), []byte(src), User, agent)
		if f.DisableAll || len(f.Hooks) != 1 || probs.Errors() != 0 || !slices.ContainsFunc(probs, func(p *Problem) bool { return strings.Contains(p.Msg, "has no disableAllHooks") }) {
			t.Errorf("%s: DisableAll %v, %d hooks, problems %v", path, f.DisableAll, len(f.Hooks), probs)
		}
	}
	claude := LayerPath{Path: write(t, dir, "home/.claude/settings.json", `{"disableAllHooks": true}`), Layer: User}
	set, _ = Load([]LayerPath{guard, claude})
	if !set.Disabled || len(set.Hooks()) != 0 {
		t.Errorf("claude's switch: disabled %v, hooks %v", set.Disabled, set.Hooks())
	}
}

// skimJSON is skimObject for data whose shape is not known yet.
func skimJSON(data []byte) []byte { return skimObject(data, isJSONObject(data)) }

// parseYAML is parseYAMLObj for data whose shape is not known yet.
func parseYAML(path string, data []byte) (ast.Node, ErrorList) {
	return parseYAMLObj(path, data, isJSONObject(bytes.TrimPrefix(data, []byte("\ufeff"))))
}
