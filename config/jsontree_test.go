package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
	"github.com/google/go-cmp/cmp"
)

// jsonTreeCases are JSON objects whose tree jsonTree builds as the YAML parser does, or
// leaves to it (declined, with the reason): numbers of every form, escapes, non-ASCII keys
// and values (columns count runes), empty collections, deep nesting, line breaks of every
// kind, and what the parser reads its own way.
var jsonTreeCases = []struct {
	name, src string
	declined  bool
}{
	{name: "numbers", src: `{"n": [1e3, -0, 0, 1.0, -0.0, 0.5e-3, 1E+2, 1e-2, -12, 9223372036854775807, 9223372036854775808, 18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809, 123456789012345678901234567890, 1e400, -1e400, 1.5e400, 0e0], "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1e3}]}]}}`},
	{name: "timeouts", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "timeout": 1e400}, {"type": "command", "command": "b", "timeout": -0}, {"type": "command", "command": "c", "timeout": 18446744073709551616}, {"type": "command", "command": "d", "timeout": 1.5}]}]}}`},
	{name: "literals", src: `{"disableAllHooks": false, "parallel": true, "audit": null, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "async": true, "statusMessage": null}]}]}}`},
	{name: "escapes", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \"a\\b\" \/ \b\f\n\r\t \u00e9 \u0041 \uD83D\uDE00 \ud83d\ude00 \u0000 \uDC00 \u2028", "comand": 1}]}]}}`},
	{name: "escapedKeys", src: `{"ho\u006fks": {"St\u006fp": [{"hooks": [{"typ\u0065": "command", "c\u006fmmand": "true", "\u00e9": 1}]}]}}`},
	{name: "nonASCII", src: "{\"env\": {\"Ω\": \"日本語\"}, \"é\": \"ü\", \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo 日本語 😀\", \"timeout\": \"x\", \"ключ\": \"значение\"}]}]}}"},
	{name: "notUTF8", src: "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo \xe9t\xe9 \xe2\x80 x\", \"x\xff\": 1}]}]}}"},
	{name: "lineSeparators", src: "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"a\u2028b\u2029c\u0085d\", \"bogus\": 1}]}]}}"},
	{name: "empty", src: `{}`},
	{name: "emptyCollections", src: `{"hooks": {"Stop": [], "PreToolUse": [{}], "PostToolUse": [{"hooks": []}], "Notification": [{"hooks": [{}]}]}, "a": {}, "b": [], "c": [[]], "d": { }, "e": [ ]}`},
	{name: "emptyKey", src: `{"": 1, "hooks": {"": [{"hooks": [{"type": "command", "command": "true", "": 2}]}]}}`},
	{name: "layout", src: "\n\n  {\"hooks\"\n:\n{\"Stop\" :[\n{ \"hooks\" : [ { \"type\":\"command\" , \"command\" :\n\"true\"\n,\"timeout\":\n  -1 } ] }\n]\n}\n}\n\n"},
	// The parser places a scalar that blanks and a line break end at the break, less its
	// length: skimObject's "0" and blanks do this, and jsonTree's first version missed it.
	{name: "blanksBeforeBreak", src: "{\"a\": 0   \n, \"b\": true  \r\n, \"c\": null \r, \"d\": -1.5 \n\n , \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\", \"timeout\": 1e3  \n, \"async\": 1  \n}]}]}}"},
	{name: "crlf", src: "{\r\n  \"hooks\": {\r\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\",\r\n\r\n\"command\": 1}]}]\r\n  }\r\n}\r\n"},
	{name: "loneCR", src: "{\r\"hooks\": {\r\r\n\"Stop\": [{\"hooks\": [{\"type\": \"command\",\n\r\"command\": 1}]}]}}"},
	{name: "schema", src: `{"$schema": "https://json.schemastore.org/claude-code-settings.json", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "*x": 1, "$y": 2}]}]}}`},
	{name: "mergeKey", src: `{"<<": {"hooks": {"Stop": []}}, "hooks": {"Stop": [{"hooks": [{"<<": {"type": "command"}, "command": "true"}]}]}}`},
	{name: "keywords", src: `{"true": "null", "null": true, "~": "~", "yes": "no", "1": 2, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "async": "true", "exit_codes": {"1": "block", "2": "yes"}}]}]}}`},
	{name: "manyKeys", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10}]}]}}`},
	{name: "deep", src: strings.Repeat(`{"a": `, 63) + "[1]" + strings.Repeat("}", 63)},
	{name: "longKey", src: `{"` + strings.Repeat("k", 1100) + `": 1, "hooks": {}}`},

	{name: "tab", src: "{\n\t\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\",\t\"command\": 1}]}]}\n}", declined: true},
	{name: "loneHighSurrogate", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \uD800"}]}]}}`, declined: true},
	{name: "highSurrogateThenNotLow", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \uD800\u0041"}]}]}}`, declined: true},
	{name: "duplicateHooks", src: `{"hooks": {"Stop": []}, "hooks": {}}`, declined: true},
	{name: "duplicateKey", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "command": "b"}]}]}}`, declined: true},
	{name: "duplicateKeyOfMany", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k2": 10}]}]}}`, declined: true},
	{name: "duplicateEscapedKey", src: `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "comm\u0061nd": "b"}]}]}}`, declined: true},
	{name: "pathCollision", src: `{"'x": {"y'": 1}, "x.y": 2, "hooks": {}}`, declined: true},
	{name: "dottedKey", src: `{"a.b": 1, "hooks": {}}`, declined: true},
	{name: "tooDeep", src: `{"a": ` + strings.Repeat(`[`, 64) + strings.Repeat("]", 64) + "}", declined: true},
}

// TestJSONTreeDeclines: jsonTree builds the tree of jsonTreeCases but those it leaves to the
// YAML parser, and of the file a hook process reads at every event.
func TestJSONTreeDeclines(t *testing.T) {
	t.Parallel()
	for _, tt := range jsonTreeCases {
		if !strings.HasPrefix(tt.src, "{") {
			continue // not an object: parse never asks
		}
		if _, ok := jsonTree([]byte(tt.src)); ok == tt.declined {
			t.Errorf("%s: built %v, want %v", tt.name, ok, !tt.declined)
		}
	}
	if _, ok := jsonTree(skimJSON(claudeSettings6K(t))); !ok {
		t.Errorf("declined the 6 KB settings file")
	}
}

// TestJSONTreeIsTheParsersTree: for every JSON config of the repository (jsonCorpus), each
// written the ways of jsonVariants, skimmed and whole, the tree jsonTree builds is the YAML
// parser's: node types, tokens (type, value, line, column, offset), values; or jsonTree
// declines, and where the parser refuses the text, jsonTree declines too.
func TestJSONTreeIsTheParsersTree(t *testing.T) {
	t.Parallel()
	var inputs []string
	for _, tt := range jsonTreeCases {
		inputs = append(inputs, tt.src)
	}
	built, declined := 0, 0
	for _, src := range append(inputs, jsonCorpus(t)...) {
		for _, v := range jsonVariants(src) {
			data := bytes.TrimPrefix([]byte(v), []byte("\ufeff"))
			if !isJSONObject(data) {
				continue
			}
			for _, text := range [][]byte{data, skimJSON(data)} {
				if ok, diff := sameTree(text); diff != "" {
					t.Errorf("%q:\n%s", text, diff)
				} else if ok {
					built++
				} else {
					declined++
				}
			}
		}
	}
	t.Logf("%d trees built, %d declined", built, declined)
	if built < 1000 {
		t.Errorf("only %d trees built", built)
	}
}

// sameTree compares jsonTree's tree for src with the YAML parser's: built says whether
// jsonTree built one, diff what differs ("" when they agree or jsonTree declined a text the
// parser reads).
func sameTree(src []byte) (built bool, diff string) {
	got, ok := jsonTree(src)
	if !ok {
		return false, ""
	}
	file, err := parseBytes(src)
	switch {
	case err != nil:
		return true, fmt.Sprintf("built a tree; the parser refuses the text: %v", err)
	case len(file.Docs) != 1:
		return true, fmt.Sprintf("the parser read %d documents", len(file.Docs))
	}
	want, have := treeLines(file.Docs[0].Body), treeLines(got)
	if slices.Equal(want, have) {
		return true, ""
	}
	return true, cmp.Diff(want, have)
}

// treeLines writes out what the config package may read of the tree under n, a line a node
// in depth-first order, each with its path from n: the node's type, its token's type,
// character type, indicator, value and position (line, column, offset), a collection's
// flow style and end token, a scalar's decoded value with its Go type. (cmp on the tree
// itself took minutes.)
func treeLines(n ast.Node) []string {
	var lines []string
	var walk func(n ast.Node, path string)
	walk = func(n ast.Node, path string) {
		if n == nil {
			lines = append(lines, path+" nil")
			return
		}
		line := fmt.Sprintf("%s %T %s", path, n, tokenText(n.GetToken()))
		var kids []ast.Node
		switch n := n.(type) {
		case *ast.MappingNode:
			line += fmt.Sprintf(" flow=%v end=%s", n.IsFlowStyle, tokenText(n.End))
			for _, v := range n.Values {
				kids = append(kids, v)
			}
		case *ast.MappingValueNode:
			line += fmt.Sprintf(" flow=%v", n.IsFlowStyle)
			kids = []ast.Node{n.Key, n.Value}
		case *ast.SequenceNode:
			line += fmt.Sprintf(" flow=%v end=%s", n.IsFlowStyle, tokenText(n.End))
			kids = n.Values
		case *ast.StringNode:
			line += fmt.Sprintf(" %#v", n.Value)
		case *ast.IntegerNode:
			line += fmt.Sprintf(" %#v", n.Value)
		case *ast.FloatNode:
			line += fmt.Sprintf(" %#v %d", n.Value, n.Precision)
		case *ast.BoolNode:
			line += fmt.Sprintf(" %#v", n.Value)
		case *ast.NullNode:
		default:
			line += " unexpected"
		}
		lines = append(lines, line)
		for i, k := range kids {
			walk(k, fmt.Sprintf("%s/%d", path, i))
		}
	}
	walk(n, "")
	return lines
}

func tokenText(t *token.Token) string {
	if t == nil {
		return "<nil>"
	}
	s := fmt.Sprintf("[%s %d %d %q", t.Type, t.CharacterType, t.Indicator, t.Value)
	if p := t.Position; p != nil {
		s += fmt.Sprintf(" %d:%d +%d", p.Line, p.Column, p.Offset)
	}
	return s + "]"
}

// parsePaths are the paths every JSON config is parsed as, one per dialect, with its layer.
var parsePaths = []struct {
	path  string
	layer Layer
}{
	{"/p/.claude/settings.json", Project},
	{"/home/u/.claude/settings.json", User},
	{"/p/.gemini/settings.json", Project},
	{"/p/.codex/hooks.json", Project},
	{"/p/.cursor/hooks.json", Project},
	{"/p/.github/hooks/a.json", Project},
	{"/p/.codebot/settings.json", Project},
	{"/p/.hookcore/hooks.yaml", Project},
	{"/tmp/policy.json", Explicit},
}

// TestJSONTreeKeepsTheParse: every JSON config of the repository (jsonCorpus), and each of
// jsonTreeCases written the ways of jsonVariants, parsed as each dialect's file (parsePaths),
// gives the same File and the same problems, positions included, with and without jsonTree —
// skimmed, and whole. Not parallel: it swaps jsonAST and skim.
func TestJSONTreeKeepsTheParse(t *testing.T) {
	inputs := jsonCorpus(t)
	for _, tt := range jsonTreeCases {
		inputs = append(inputs, jsonVariants(tt.src)...)
	}
	for _, src := range inputs {
		for _, p := range parsePaths {
			if diff := fastPathDiff(p.path, []byte(src), p.layer, false); diff != "" {
				t.Errorf("%q as %s:\n%s", src, p.path, diff)
			}
		}
	}
}

// fastPathDiff parses data as the file at path with and without jsonTree, skimmed, and whole
// too unless skimmedOnly, and returns how the Files or problems differ ("" when they do not).
func fastPathDiff(path string, data []byte, layer Layer, skimmedOnly bool) string {
	defer func() { jsonAST, skim = jsonTree, skimObject }()
	skims := []func([]byte, bool) []byte{skimObject, func(b []byte, _ bool) []byte { return b }}
	if skimmedOnly {
		skims = skims[:1]
	}
	var b strings.Builder
	for _, sk := range skims {
		skim = sk
		jsonAST = jsonTree
		fast, fastProbs := parseData(path, data, layer)
		jsonAST = func([]byte) (ast.Node, bool) { return nil, false }
		slow, slowProbs := parseData(path, data, layer)
		if d := cmp.Diff(slow, fast, cmp.AllowUnexported(File{})); d != "" {
			fmt.Fprintf(&b, "file (-parser +jsonTree):\n%s", d)
		}
		if d := cmp.Diff(slowProbs, fastProbs); d != "" {
			fmt.Fprintf(&b, "problems (-parser +jsonTree):\n%s", d)
		}
	}
	return b.String()
}

// TestJSONTreeAllocations bounds the allocations of the tree of the 6 KB settings file a hook
// process reads at every event (the YAML parser made 1 162 for it, skim and caps included).
// Not parallel: AllocsPerRun counts the whole process's.
func TestJSONTreeAllocations(t *testing.T) {
	data := claudeSettings6K(t)
	obj := isJSONObject(data)
	if n := testing.AllocsPerRun(20, func() { parseYAMLObj(claudeSettingsPath, data, obj) }); n > 110 {
		t.Errorf("%v allocations, want at most 110", n)
	} else {
		t.Logf("%v allocations", n)
	}
}

// FuzzJSONTree: for a JSON object, jsonTree builds the YAML parser's tree or declines,
// skimmed and whole, and parse gives the same File and problems with and without it, as every
// dialect's file (skimmed: the trees already compare whole). Seeded with jsonCorpus and
// jsonTreeCases. Not parallel: it swaps jsonAST and skim.
func FuzzJSONTree(f *testing.F) {
	for _, src := range jsonCorpus(f) {
		f.Add(src)
	}
	for _, tt := range jsonTreeCases {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		data := bytes.TrimPrefix([]byte(src), []byte("\ufeff"))
		if !isJSONObject(data) && !isJSONObject(stripJSONComments(data)) {
			return
		}
		if isJSONObject(data) {
			for _, text := range [][]byte{data, skimJSON(data)} {
				if CheckLimits("f.json", text) != nil {
					continue // parse never reads it
				}
				if _, diff := sameTree(text); diff != "" {
					t.Fatalf("%q:\n%s", text, diff)
				}
			}
		}
		for _, p := range parsePaths {
			if diff := fastPathDiff(p.path, []byte(src), p.layer, true); diff != "" {
				t.Fatalf("%q as %s:\n%s", src, p.path, diff)
			}
		}
	})
}
