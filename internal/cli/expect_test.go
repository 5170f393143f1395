//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/internal/text"
)

// expectation is an expect.json of a conformance case (../shared/conformance/run, check()):
// every key is optional, and a key that is present must hold. Unlike the Python runner an
// unknown key is an error, so that a misspelt key can not pass silently.
type expectation struct {
	Exit            *int              `json:"exit"`             // exit status of the command
	Blocked         *bool             `json:"blocked"`          // result "blocked"
	Permission      *string           `json:"permission"`       // result "permission" ("" when absent)
	ReasonContains  strList           `json:"reason_contains"`  // substrings of result "reason"
	ReasonAbsent    strList           `json:"reason_absent"`    // not substrings of "reason"
	ContextContains strList           `json:"context_contains"` // substrings of "additional_context", in order
	ContextAbsent   strList           `json:"context_absent"`   // not substrings of "additional_context"
	UpdatedInput    json.RawMessage   `json:"updated_input"`    // equal to result "updated_input"
	Continue        *bool             `json:"continue"`         // result "continue" (true when absent)
	HooksCount      *int              `json:"hooks_count"`      // number of result "hooks"
	Outcomes        *[]string         `json:"outcomes"`         // result hooks[i].outcome, in order
	StdoutContains  strList           `json:"stdout_contains"`  // substrings of stdout
	StderrContains  strList           `json:"stderr_contains"`  // substrings of stderr
	Files           map[string]string `json:"files"`            // path under $WORK: exact content
	FilesContain    map[string]string `json:"files_contain"`    // path under $WORK: substring
	Absent          []string          `json:"absent"`           // paths under $WORK that must not exist
	MaxSeconds      *float64          `json:"max_seconds"`      // the Python runner's wall-time bound; not checked here (see check)
	SettleSeconds   float64           `json:"settle_seconds"`   // wait this long before checking files
}

// strList is a JSON string or list of strings.
type strList []string

func (l *strList) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*l = strList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(data, &ss); err != nil {
		return fmt.Errorf("want a string or a list of strings, got %s", data)
	}
	*l = ss
	return nil
}

func parseExpectation(data []byte) (*expectation, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e expectation
	if err := dec.Decode(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

// observed is what one hookcore run did.
type observed struct {
	exit           int
	stdout, stderr string
	work           string // the script's $WORK, where file paths are relative to
}

// needsResult reports whether a key about the fire result (stdout as JSON) is present.
func (e *expectation) needsResult() bool {
	return e.Blocked != nil || e.Permission != nil || e.ReasonContains != nil || e.ReasonAbsent != nil ||
		e.ContextContains != nil || e.ContextAbsent != nil || e.UpdatedInput != nil ||
		e.Continue != nil || e.HooksCount != nil || e.Outcomes != nil
}

// check returns every expectation that does not hold, one message each. max_seconds is not
// checked: go test must pass on a busy 2-core machine, so it bounds outcomes (a hook that was
// waited for shows as a wrong outcome or a file that should be absent), never the wall time
// (issue 10); the Python runner still applies it.
func (e *expectation) check(o observed) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	var result map[string]any
	if e.needsResult() {
		if err := json.Unmarshal([]byte(o.stdout), &result); err != nil {
			return []string{fmt.Sprintf("stdout is not a JSON result (%v): %q", err, text.Truncate(o.stdout, 300, "..."))}
		}
	}
	if e.Exit != nil && o.exit != *e.Exit {
		bad("exit %d, want %d (stderr: %q)", o.exit, *e.Exit, text.Truncate(strings.TrimSpace(o.stderr), 300, "..."))
	}
	if e.Blocked != nil && result["blocked"] != *e.Blocked {
		bad("blocked=%v, want %v", result["blocked"], *e.Blocked)
	}
	if e.Permission != nil && str(result["permission"]) != *e.Permission {
		bad("permission=%q, want %q", str(result["permission"]), *e.Permission)
	}
	reason := str(result["reason"])
	for _, s := range e.ReasonContains {
		if !strings.Contains(reason, s) {
			bad("reason %q lacks %q", reason, s)
		}
	}
	for _, s := range e.ReasonAbsent {
		if strings.Contains(reason, s) {
			bad("reason %q has %q", reason, s)
		}
	}
	ctx := str(result["additional_context"])
	pos := 0
	for _, s := range e.ContextContains {
		if i := strings.Index(ctx[pos:], s); i < 0 {
			bad("additional_context %q lacks %q (in order)", ctx, s)
		} else {
			pos += i + len(s)
		}
	}
	for _, s := range e.ContextAbsent {
		if strings.Contains(ctx, s) {
			bad("additional_context %q has %q", ctx, s)
		}
	}
	if e.UpdatedInput != nil {
		var want any
		if err := json.Unmarshal(e.UpdatedInput, &want); err != nil {
			bad("updated_input in expect: %v", err)
		} else if !cmp.Equal(result["updated_input"], want) {
			bad("updated_input=%v, want %v", result["updated_input"], want)
		}
	}
	if e.Continue != nil {
		got, ok := result["continue"]
		if !ok {
			got = true
		}
		if got != *e.Continue {
			bad("continue=%v, want %v", got, *e.Continue)
		}
	}
	hooks, _ := result["hooks"].([]any)
	if e.HooksCount != nil && len(hooks) != *e.HooksCount {
		bad("%d hook records, want %d", len(hooks), *e.HooksCount)
	}
	if e.Outcomes != nil {
		got := []string{}
		for _, h := range hooks {
			m, _ := h.(map[string]any)
			got = append(got, str(m["outcome"]))
		}
		if !cmp.Equal(got, *e.Outcomes) {
			bad("outcomes %q, want %q", got, *e.Outcomes)
		}
	}
	for _, s := range e.StdoutContains {
		if !strings.Contains(o.stdout, s) {
			bad("stdout lacks %q: %q", s, text.Truncate(strings.TrimSpace(o.stdout), 400, "..."))
		}
	}
	for _, s := range e.StderrContains {
		if !strings.Contains(o.stderr, s) {
			bad("stderr lacks %q: %q", s, text.Truncate(strings.TrimSpace(o.stderr), 400, "..."))
		}
	}
	for _, p := range sortedKeys(e.Files) {
		data, err := os.ReadFile(filepath.Join(o.work, p))
		switch {
		case err != nil:
			bad("file %s missing", p)
		case string(data) != e.Files[p]:
			bad("file %s = %q, want %q", p, data, e.Files[p])
		}
	}
	for _, p := range sortedKeys(e.FilesContain) {
		data, err := os.ReadFile(filepath.Join(o.work, p))
		switch {
		case err != nil:
			bad("file %s missing", p)
		case !strings.Contains(string(data), e.FilesContain[p]):
			bad("file %s lacks %q", p, e.FilesContain[p])
		}
	}
	for _, p := range e.Absent {
		if _, err := os.Lstat(filepath.Join(o.work, p)); err == nil {
			bad("file %s exists but must not", p)
		}
	}
	return problems
}

// str is a JSON value as a string: "" for null or a missing key, like Python's `or ""`.
func str(v any) string {
	s, _ := v.(string)
	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestExpectationCheck makes sure the expect command can fail: each case breaks one key.
func TestExpectationCheck(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "log.txt"), []byte("a\nb\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	const result = `{"event":"PreToolUse","blocked":true,"reason":"no rm","permission":"deny",
		"additional_context":"one\ntwo","updated_input":{"command":"ls -la"},"continue":false,
		"hooks":[{"id":"a","outcome":"ok"},{"id":"b","outcome":"block"}]}`
	o := observed{exit: 2, stdout: result, stderr: "x.yaml:3:5: guard: bad", work: work}
	tests := []struct {
		name   string
		expect string
		want   int // number of problems
	}{
		{"all hold", `{"exit": 2, "blocked": true, "permission": "deny", "reason_contains": "no rm",
			"reason_absent": ["yes"], "context_contains": ["one", "two"], "context_absent": "three",
			"updated_input": {"command": "ls -la"}, "continue": false, "hooks_count": 2,
			"outcomes": ["ok", "block"], "stdout_contains": "PreToolUse", "stderr_contains": ["x.yaml:3", "guard"],
			"files": {"log.txt": "a\nb\n"}, "files_contain": {"log.txt": "b"}, "absent": ["nope"], "max_seconds": 3}`, 0},
		{"exit", `{"exit": 0}`, 1},
		{"blocked", `{"blocked": false}`, 1},
		{"permission", `{"permission": "ask"}`, 1},
		{"reason", `{"reason_contains": ["no", "yes"], "reason_absent": "rm"}`, 2},
		{"context order", `{"context_contains": ["two", "one"]}`, 1},
		{"context absent", `{"context_absent": ["one"]}`, 1},
		{"updated input", `{"updated_input": {"command": "ls"}}`, 1},
		{"updated input null", `{"updated_input": null}`, 1},
		{"continue", `{"continue": true}`, 1},
		{"hooks", `{"hooks_count": 1, "outcomes": ["ok"]}`, 2},
		{"streams", `{"stdout_contains": "nothing", "stderr_contains": "x.yaml:4"}`, 2},
		{"files", `{"files": {"log.txt": "a\n", "gone.txt": ""}, "files_contain": {"log.txt": "c"}, "absent": ["log.txt"]}`, 4},
		{"max_seconds is not a test of go test", `{"max_seconds": 0.001}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := parseExpectation([]byte(tt.expect))
			if err != nil {
				t.Fatal(err)
			}
			if got := e.check(o); len(got) != tt.want {
				t.Errorf("check gave %d problems, want %d: %q", len(got), tt.want, got)
			}
		})
	}
}

func TestExpectationUnknownKey(t *testing.T) {
	t.Parallel()
	if _, err := parseExpectation([]byte(`{"exits": 1}`)); err == nil {
		t.Error("an unknown key was accepted")
	}
	if _, err := parseExpectation([]byte(`{"stderr_contains": 3}`)); err == nil {
		t.Error("a number was accepted as a string list")
	}
}
