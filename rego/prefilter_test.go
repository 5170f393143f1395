package rego

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// corpus generates n hook inputs (seeded): tool names and events the example policy pins
// and others, commands built from the words its rules look for, file paths, and inputs
// written to trip the prefilter's JSON reader (escaped strings, duplicate keys, numbers
// where strings are expected, whitespace, Extra fields, invalid JSON).
func corpus(n int) []*hook.Input {
	r := rand.New(rand.NewPCG(12, 34))
	tools := []string{"Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Grep", "", "bash", "Bash ", "Edit\x00"}
	events := []string{"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "", "sessionstart"}
	words := []string{"rm", "-rf", "-fr", "-r", "-f", "--recursive", "--force", "/bin/rm", "npm", "install", "ci", "i", "--ignore-scripts", "ls", "&&", "cd /srv", "echo", "-Rf", "build", "rmdir", "npm  install"}
	paths := []string{"a.go", "/p/.env", ".env", "/p/package-lock.json", "package-lock.json.bak", "/x/.env.local", ""}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	out := make([]*hook.Input, 0, n)
	for len(out) < n {
		in := &hook.Input{ToolName: pick(tools), HookEventName: pick(events), SessionID: "s1"}
		if r.IntN(4) == 0 {
			in.Cwd = "/work"
		}
		var cmd []string
		for range r.IntN(6) {
			cmd = append(cmd, pick(words))
		}
		command := strings.Join(cmd, " ")
		path := pick(paths)
		switch r.IntN(12) {
		case 0:
			in.ToolInput = nil
		case 1:
			in.ToolInput = json.RawMessage(`{"command": 42, "file_path": ["` + path + `"]}`)
		case 2: // escaped: the same text the reader must not trust
			esc := strings.ReplaceAll(command, "r", `\u0072`)
			in.ToolInput = json.RawMessage(`{"command":"` + esc + `","file_path":"` + strings.ReplaceAll(path, ".", `\u002e`) + `"}`)
		case 3: // a duplicate key: the last one wins in OPA's decoder
			in.ToolInput = json.RawMessage(`{"command":"ls","command":` + mustJSON(command) + `}`)
		case 4:
			in.ToolInput = json.RawMessage(" {\n \"file_path\" : " + mustJSON(path) + " ,\t\"command\":" + mustJSON(command) + " } ")
		case 5:
			in.ToolInput = json.RawMessage(`{"command":` + mustJSON(command) + `,"nested":{"command":"rm -rf /","a":[1,{"b":"}"}]}}`)
		case 6:
			in.ToolInput = json.RawMessage(`{"command":"unterminated`) // invalid: both must fail
		case 7:
			in.Extra = map[string]json.RawMessage{"tool_name": json.RawMessage(`"Bash"`), "custom": json.RawMessage(`{"command":"rm -rf /"}`)}
			in.ToolInput = mustRaw(map[string]any{"command": command})
		case 8:
			in.ToolInput = json.RawMessage(`"a string, not an object"`)
		case 9:
			in.ToolInput = mustRaw(map[string]any{"command": command, "file_path": path, "k\"ey": "v"})
		default:
			in.ToolInput = mustRaw(map[string]any{"command": command, "file_path": path})
		}
		if r.IntN(10) == 0 {
			in.ToolResponse = json.RawMessage(`{"stdout":"rm -rf"}`)
		}
		if r.IntN(25) == 0 {
			in.Prompt = "bad utf8 \xff rm"
		}
		out = append(out, in)
	}
	return out
}

func mustJSON(s string) string { b, _ := json.Marshal(s); return string(b) }
func mustRaw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// adversarial policies: forms written to defeat a prefilter that pins literals. want is
// whether a prefilter is expected (a sound one, or none at all).
var adversarial = []struct {
	name, src string
	want      bool
}{
	{"index by string", `deny contains "x" if input["tool_name"] == "Read"`, true},
	{"some key", `deny contains k if { some k; input[k] == "Bash" }`, false},
	{"with", "deny contains \"w\" if { inner with input as {\"tool_name\": \"Bash\"} }\ninner if input.tool_name == \"Bash\"", false},
	{"function", "is_bash(x) if x == \"Bash\"\ndeny contains \"f\" if is_bash(input.tool_name)", true},
	{"function of the whole input", "is_rm(i) if contains(i.tool_input.command, \"rm\")\ndeny contains \"g\" if is_rm(input)", false},
	{"walk", `deny contains "walk" if { walk(input, [_, v]); v == "rm -rf /" }`, false},
	{"default", "default allow := false\nallow if input.tool_name == \"Read\"", true},
	{"else", "reason := \"bash\" if input.tool_name == \"Bash\" else := \"other\"\nallow := true", false},
	{"negation", `deny contains "n" if not input.tool_name == "Bash"`, false},
	{"conflict", "reason := \"one\" if input.tool_name == \"Read\"\nreason := \"two\" if input.tool_name == \"Read\"\ndeny if input.tool_name == \"Read\"", true},
	{"constant decision", "deny contains \"always\" if true\ndeny contains \"grep\" if input.tool_name == \"Grep\"", true},
	{"count of an empty set", "flags contains f if { f := input.tool_input.flag }\ndeny contains \"none\" if count(flags) == 0", false},
	{"object.get", `deny contains "o" if object.get(input, "tool_name", "") == "Bash"`, false},
	{"time", "deny contains \"t\" if { time.now_ns() > 0; input.tool_name == \"Bash\" }", false},
	{"input in a variable", `deny contains "v" if { x := input; x.tool_name == "Edit" }`, true},
	{"compared with a rule", "target := \"Bash\"\ndeny contains \"c\" if input.tool_name == target", false},
	{"iteration", `deny contains "i" if { some w in input.tool_input.args; w == "rm" }`, false},
	{"empty string", `deny contains "e" if input.tool_name == ""`, true},
	{"command equality", `deny contains "rm" if input.tool_input.command == "rm -rf"`, true},
	{"nested path", `ask contains "nested" if startswith(input.tool_input.nested.command, "rm")`, true},
	{"extra field", `deny contains "custom" if input.custom.command == "rm -rf /"`, true},
	{"helper with a conflict", "h := \"a\" if input.tool_name == \"Read\"\nh := \"b\" if input.tool_name == \"Read\"\nallow := true", true}, // guarded: a sound prefilter, not an exemption
	{"helper reading a rule", "h := x if { input.tool_name == \"Read\"; x := count(input.tool_input) }\nallow := true", true},               // guarded: a sound prefilter, not an exemption
	{"decision key helper", "reason := input.tool_input.command if input.tool_name == \"Bash\"", true},                                      // guarded: a sound prefilter, not an exemption
	{"sprintf after guard", `deny contains msg if { msg := sprintf("%v", [input.tool_name]); startswith(input.tool_name, "Ba") }`, true},
	{"updated input", "updated_input := object.union(input.tool_input, {\"x\": 1}) if endswith(input.tool_input.file_path, \".env\")\nallow if endswith(input.tool_input.file_path, \".env\")", true},
	{"rule in another package", "", true}, // written below: package lib
	{"query over input", "", false},       // the query names input
}

// TestPrefilterSound: for every input of the corpus and every policy (the example and the
// adversarial ones), Execute (prefilter) answers exactly what evaluation answers, errors
// included; the example's prefilter skips a good part of the corpus.
func TestPrefilterSound(t *testing.T) {
	inputs := corpus(1500)
	type pol struct {
		name  string
		opts  Options
		want  bool
		check bool
	}
	dir := t.TempDir()
	pols := []pol{{name: "guardrails example", opts: Options{Policy: examplePolicy(t)}, want: true, check: true}}
	for i, a := range adversarial {
		p := filepath.Join(dir, fmt.Sprintf("p%d", i))
		os.MkdirAll(p, 0o755)
		src := "package hookcore\n" + a.src + "\n"
		opts := Options{Policy: p}
		switch a.name {
		case "rule in another package":
			os.WriteFile(filepath.Join(p, "lib.rego"), []byte("package lib\nis_rm if contains(input.tool_input.command, \"rm\")\n"), 0o644)
			src = "package hookcore\ndeny contains \"lib\" if data.lib.is_rm\n"
		case "query over input":
			src = "package hookcore\nbash := {\"deny\": true}\n"
			opts.Query = "data.hookcore[lower(input.tool_name)]"
		}
		os.WriteFile(filepath.Join(p, "p.rego"), []byte(src), 0o644)
		pols = append(pols, pol{name: a.name, opts: opts, want: a.want, check: true})
	}
	ctx := context.Background()
	compared := 0
	for _, p := range pols {
		x, err := New(ctx, p.opts)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		defer x.Close()
		pol := x.prepared.Load()
		if (pol.pre != nil) != p.want {
			t.Errorf("%s: prefilter %v, want %v", p.name, pol.pre != nil, p.want)
		}
		skipped := 0
		for _, in := range inputs {
			got, gerr := x.Execute(ctx, in)
			want, werr := x.evaluate(ctx, pol, in)
			compared++
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
				b, _ := json.Marshal(in)
				t.Fatalf("%s: input %s (tool input %q):\nprefiltered %+v, %v\nevaluated   %+v, %v", p.name, b, in.ToolInput, got, gerr, want, werr)
			}
			if pol.pre != nil && !pol.pre.mayDecide(in) {
				skipped++
			}
		}
		t.Logf("%s: prefilter %v, %d of %d inputs skipped", p.name, pol.pre != nil, skipped, len(inputs))
		if p.name == "guardrails example" && (skipped < len(inputs)/3 || skipped == len(inputs)) {
			t.Errorf("the example's prefilter skipped %d of %d inputs", skipped, len(inputs))
		}
	}
	if compared < 1000*len(pols) {
		t.Fatalf("only %d comparisons", compared)
	}
}

// TestPrefilterExample: what the example's prefilter lets through, and a no-match event
// costs no allocation.
func TestPrefilterExample(t *testing.T) {
	x, err := New(context.Background(), Options{Policy: examplePolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	pre := x.prepared.Load().pre
	if pre == nil {
		t.Fatal("no prefilter for the example policy")
	}
	const want = `input.tool_name == "Bash" && contains(input.tool_input.command, "rm") || ` +
		`input.tool_name in {"Edit", "MultiEdit", "NotebookEdit", "Write"} && endswith(input.tool_input.file_path, "/.env") || ` +
		`input.tool_name in {"Edit", "MultiEdit", "Write"} && endswith(input.tool_input.file_path, "package-lock.json") || ` +
		`input.tool_name == "Bash" && contains(input.tool_input.command, "npm") || ` +
		`input.hook_event_name == "SessionStart"`
	if got := pre.String(); got != want {
		t.Errorf("the example's prefilter:\n got %s\nwant %s", got, want)
	}
	for _, tt := range []struct {
		in   *hook.Input
		want bool
	}{
		{bashInput("ls -la"), false},
		{bashInput("cd /srv && rm -rf build"), true},
		{bashInput("npm install"), true},
		{&hook.Input{HookEventName: "PreToolUse", ToolName: "Read", ToolInput: json.RawMessage(`{"file_path":"/p/.env"}`)}, false},
		{&hook.Input{HookEventName: "PreToolUse", ToolName: "Edit", ToolInput: json.RawMessage(`{"file_path":"/p/.env"}`)}, true},
		{&hook.Input{HookEventName: "SessionStart", Source: "startup"}, true},
		{&hook.Input{HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"\u0072m -rf /"}`)}, true},
	} {
		if got := pre.mayDecide(tt.in); got != tt.want {
			t.Errorf("mayDecide(%s %s) = %v, want %v", tt.in.ToolName, tt.in.ToolInput, got, tt.want)
		}
	}
	logged, err := New(context.Background(), Options{Policy: examplePolicy(t), DecisionLogURL: "http://127.0.0.1:1/logs"})
	if err != nil {
		t.Fatal(err)
	}
	defer logged.Close()
	if logged.prepared.Load().pre != nil {
		t.Error("a policy whose decisions are logged has a prefilter: skipped events would not be logged")
	}
	in := bashInput("ls -la")
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() { x.Execute(ctx, in) }); n != 0 {
		t.Errorf("a no-match event allocates %v times", n)
	}
}

// TestLookupRaw: the prefilter's JSON reader agrees with encoding/json whenever it answers.
func TestLookupRaw(t *testing.T) {
	docs := []string{
		`{"command":"ls"}`, ` { "a" : { "b" : "c" } , "d":1 }`, `{"a":"x\"y"}`, `{"a":"\u0041"}`, `{"a":"x \u0026\u0026 \u00e9\n\t\/\\ \ud83d\ude00 y"}`, `{"a":"` + strings.Repeat(`\u0026x`, 300) + `"}`,
		`{"a":"1","a":"2"}`, `{"a":[1,"]",{"x":"}"}],"b":"ok"}`, `{"b":null}`, `{"b":true,"c":"t"}`,
		`[1,2]`, `"s"`, `{}`, `{"a\u0062":"x","ab":"y"}`, `{"a":{"b":{"c":"deep"}}}`, `{"a":"é ü"}`,
	}
	paths := [][]string{{"command"}, {"a"}, {"a", "b"}, {"b"}, {"c"}, {"d"}, {"ab"}, {"a", "b", "c"}, {"x"}}
	for _, d := range docs {
		var v any
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Fatal(d, err)
		}
		for _, p := range paths {
			var buf [256]byte
			got, st := lookupRaw(json.RawMessage(d), p, &buf)
			cur, ok := v, true
			for _, k := range p {
				m, isObj := cur.(map[string]any)
				if !isObj {
					ok = false
					break
				}
				cur, ok = m[k]
				if !ok {
					break
				}
			}
			switch st {
			case absent:
				if ok {
					t.Errorf("%s %v: absent, but json has %v", d, p, cur)
				}
			case str:
				if s, isStr := cur.(string); !ok || !isStr || s != got {
					t.Errorf("%s %v: %q, json has %v", d, p, got, cur)
				}
			case other:
				if _, isStr := cur.(string); !ok || isStr {
					t.Errorf("%s %v: other, json has %v", d, p, cur)
				}
			}
		}
	}
}

// TestInputNames: the prefilter's reader knows every field hook.Input writes (a name it does
// not know reads as absent, so a new field must be added to lookup).
func TestInputNames(t *testing.T) {
	typ := reflect.TypeFor[hook.Input]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		in := &hook.Input{}
		if _, st := lookup(in, []string{name}, new([256]byte)); st == absent && name != "tool_input" && name != "tool_response" {
			// an empty string field reads absent; set it and look again
			f := reflect.ValueOf(in).Elem().Field(i)
			if f.Kind() != reflect.String {
				t.Errorf("%s: a %s field the reader does not know", name, f.Kind())
				continue
			}
			f.SetString("v")
			if v, st := lookup(in, []string{name}, new([256]byte)); st != str || v != "v" {
				t.Errorf("%s: the reader does not read this field (%q, %v)", name, v, st)
			}
		}
	}
}

// TestInputValue: the input built field by field is the value of the JSON route (the
// hook input's JSON text decoded as OPA decodes input) for every input of the corpus,
// errors included; the keys of Input's own fields are known to the builder.
func TestInputValue(t *testing.T) {
	inputs := corpus(1500)
	inputs = append(inputs,
		&hook.Input{HookEventName: "Stop"}, &hook.Input{HookEventName: "SubagentStop", StopHookActive: true},
		&hook.Input{ToolName: "Bash", Extra: map[string]json.RawMessage{"n": json.RawMessage(`1.50`), "o": json.RawMessage(`{"a":[1,2e3,null]}`)}},
		&hook.Input{ToolName: "Bash", Extra: map[string]json.RawMessage{"bad": json.RawMessage(`{`)}},
		&hook.Input{ToolName: "Bash", Extra: map[string]json.RawMessage{"bad\xffkey": json.RawMessage(`1`)}},
		&hook.Input{ToolName: "Bash", ToolResponse: json.RawMessage(` "s" `), Cwd: "bad \xff utf8"},
	)
	direct := 0
	for _, in := range inputs {
		got, gerr := inputValue(in)
		want, werr := inputViaJSON(in)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || (gerr == nil && got.Compare(want) != 0) {
			b, _ := json.Marshal(in)
			t.Fatalf("input %s:\ndirect %v, %v\njson   %v, %v", b, got, gerr, want, werr)
		}
		if directInput(in) {
			direct++
		}
	}
	if direct < len(inputs)*3/4 {
		t.Errorf("only %d of %d inputs built directly", direct, len(inputs))
	}
	typ := reflect.TypeFor[hook.Input]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if !ownField(name) {
			t.Errorf("%s: a field of hook.Input that inputValue does not know", name)
		}
		in := &hook.Input{}
		switch f := reflect.ValueOf(in).Elem().Field(i); f.Kind() {
		case reflect.String:
			f.SetString("v")
		case reflect.Bool:
			f.SetBool(true)
		default:
			f.SetBytes([]byte(`{"k":"v"}`))
		}
		got, _ := inputValue(in)
		want, _ := inputViaJSON(in)
		if got == nil || got.Compare(want) != 0 {
			t.Errorf("%s: direct %v, json %v", name, got, want)
		}
	}
}
