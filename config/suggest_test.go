package config

import (
	"testing"

	"github.com/hookcore/hookcore/hook"
)

func TestSuggest(t *testing.T) {
	t.Parallel()
	events := hook.EventNames()
	tests := []struct {
		word       string
		candidates []string
		want       string
	}{
		{"pre_tool_usee", events, "pre_tool_use"},
		{"PreToolUze", events, "PreToolUse"},
		{"pretooluse", events, "PreToolUse"},
		{"SesionStart", events, "SessionStart"},
		{"turn_strat", events, "turn_start"}, // two edits in 9 letters: within a third
		{"comand", actionTypes, "command"},
		{"HTTP", actionTypes, "http"},
		{"webhook", actionTypes, ""},
		{"", actionTypes, ""},
		{"x", []string{"y"}, "y"},
		{"acton", nativeKeys, "action"},
		{"allowedHosts", actionKeys, "allowed_hosts"},
		{"zzzzzzzz", events, ""},
	}
	for _, tt := range tests {
		if got := Suggest(tt.word, tt.candidates); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestProblemAndList(t *testing.T) {
	t.Parallel()
	l := ErrorList{
		{Pos: Pos{"b.yaml", 1, 1}, Msg: "late file"},
		{Pos: Pos{"a.yaml", 3, 2}, HookID: "h", Msg: "unknown key", Warning: true},
		{Pos: Pos{"a.yaml", 3, 1}, HookID: "h", Msg: "bad"},
		{Pos: Pos{File: "a.yaml"}, Msg: "cannot read config: x"},
	}
	l.Sort()
	want := "a.yaml: cannot read config: x\n" +
		"a.yaml:3:1: h: bad\n" +
		"a.yaml:3:2: h: warning: unknown key\n" +
		"b.yaml:1:1: late file"
	if got := l.Error(); got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
	if l.Errors() != 3 || l.Warnings() != 1 || l.Err() == nil {
		t.Errorf("counts %d/%d, Err %v", l.Errors(), l.Warnings(), l.Err())
	}
	if (ErrorList{l[2]}).Err() != nil || ErrorList(nil).Err() != nil {
		t.Error("Err() is not nil for warnings only")
	}
	if got := (Pos{"f", 2, 0}).String(); got != "f:2" {
		t.Errorf("Pos.String() = %q", got)
	}
	h := Hook{Pos: Pos{"f.yaml", 7, 5}}
	if h.Source() != "f.yaml:7" {
		t.Errorf("Source() = %q", h.Source())
	}
	for _, s := range []string{Native.String(), Flat.String(), Nested.String(), Explicit.String(), User.String(), Project.String(), Local.String(), Dialect(9).String(), Layer(9).String()} {
		if s == "" {
			t.Error("empty String()")
		}
	}
}
