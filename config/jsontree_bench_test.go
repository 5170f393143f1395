package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// claudeSettingsPath is where BenchmarkParseClaudeSettings parses its file as.
const claudeSettingsPath = "/home/u/.claude/settings.json"

// claudeSettings6K returns a real-sized ~/.claude/settings.json (6 KB: 160 permission
// rules, env, a model, a status line and the three exec-form hook entries `hookcore install
// claude` writes), the file bench/hookbridge.sh writes.
func claudeSettings6K(tb testing.TB) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "claude-settings-6k.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkParseClaudeSettings parses claudeSettings6K as a hook process does at every event
// (issue 9): parseData whole; the tree alone (parseYAMLObj: the skim, the caps and the
// parse); and the skimmed text's parse alone, by the YAML parser and by jsonTree.
func BenchmarkParseClaudeSettings(b *testing.B) {
	data := claudeSettings6K(b)
	if f, probs := parseData(claudeSettingsPath, data, User); f.Failed || len(f.Hooks) != 3 || len(probs) != 0 {
		b.Fatalf("failed %v, %d hooks, problems %v", f.Failed, len(f.Hooks), probs)
	}
	b.Run("parseData", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			parseData(claudeSettingsPath, data, User)
		}
	})
	b.Run("tree", func(b *testing.B) {
		obj := isJSONObject(bytes.TrimPrefix(data, []byte("\ufeff")))
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			parseYAMLObj(claudeSettingsPath, data, obj)
		}
	})
	skimmed := skimJSON(data)
	b.Run("skimmed/parser", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(skimmed)))
		for b.Loop() {
			parseBytes(skimmed)
		}
	})
	b.Run("skimmed/jsonTree", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(skimmed)))
		for b.Loop() {
			jsonTree(skimmed)
		}
	})
}
