package command

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
	"mvdan.cc/sh/v3/syntax"
)

func varsInput() *hook.Input {
	return &hook.Input{
		SessionID: "s1", Cwd: "/work", HookEventName: "PreToolUse", ToolName: "Bash",
		ToolInput: json.RawMessage(`{"command": "go test ./...", "path": "a b.go", "n": 3, "ok": true, "nested": {"k": "v", "list": ["x", "y"]}, "html": "<b>&"}`),
		Message:   "hello", Error: "boom",
	}
}

func TestSubstituteShell(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script, want string
		env                []string
	}{
		{"bare", `printf '%s' $FILE_PATH`, `printf '%s' "${__HOOKCORE_V1}"`, []string{"__HOOKCORE_V1=a b.go"}},
		{"double quoted", `echo "$FILE_PATH"`, `echo "${__HOOKCORE_V1}"`, []string{"__HOOKCORE_V1=a b.go"}},
		{"embedded", `echo "path=$FILE_PATH;"`, `echo "path=${__HOOKCORE_V1};"`, []string{"__HOOKCORE_V1=a b.go"}},
		{"braces", `echo ${TOOL_NAME}x "${EVENT}"`, `echo "${__HOOKCORE_V1}"x "${__HOOKCORE_V2}"`, []string{"__HOOKCORE_V1=Bash", "__HOOKCORE_V2=PreToolUse"}},
		{"single quoted untouched", `echo '$FILE_PATH' "'$TOOL_NAME'"`, `echo '$FILE_PATH' "'${__HOOKCORE_V1}'"`, []string{"__HOOKCORE_V1=Bash"}},
		{"shared reference", `a $FILE_PATH; b "$FILE_PATH"`, `a "${__HOOKCORE_V1}"; b "${__HOOKCORE_V1}"`, []string{"__HOOKCORE_V1=a b.go"}},
		{"tool args", `x $TOOL_ARGS.command $TOOL_ARGS.nested.k`, `x "${__HOOKCORE_V1}" "${__HOOKCORE_V2}"`, []string{"__HOOKCORE_V1=go test ./...", "__HOOKCORE_V2=v"}},
		{"shell variables untouched", `echo $HOME "$NO_SUCH_VAR" $$ $1 ${FILE_PATH%.go} $EVENTS`, `echo $HOME "$NO_SUCH_VAR" $$ $1 ${FILE_PATH%.go} $EVENTS`, nil},
		{"escaped dollar", `echo \$FILE_PATH "\$TOOL_NAME"`, `echo \$FILE_PATH "\$TOOL_NAME"`, nil},
		{"ansi c quote", `echo $'$FILE_PATH\''`, `echo $'$FILE_PATH\''`, nil},
		{"command substitution", `echo "$(basename $FILE_PATH)"`, `echo "$(basename "${__HOOKCORE_V1}")"`, []string{"__HOOKCORE_V1=a b.go"}},
		{"nested parens", `echo $( (echo $CWD) )`, `echo $( (echo "${__HOOKCORE_V1}") )`, []string{"__HOOKCORE_V1=/work"}},
		{"backticks", "echo \"`echo $CWD`\"", "echo \"`echo \"${__HOOKCORE_V1}\"`\"", []string{"__HOOKCORE_V1=/work"}},
		{"comment", "echo $CWD # $FILE_PATH\necho", "echo \"${__HOOKCORE_V1}\" # $FILE_PATH\necho", []string{"__HOOKCORE_V1=/work"}},
		{"not a comment", "echo a#$CWD", "echo a#\"${__HOOKCORE_V1}\"", []string{"__HOOKCORE_V1=/work"}},
		{"heredoc", "cat <<EOF\n$FILE_PATH \"$CWD\"\nEOF\necho $CWD", "cat <<EOF\n${__HOOKCORE_V1} \"${__HOOKCORE_V2}\"\nEOF\necho \"${__HOOKCORE_V2}\"", []string{"__HOOKCORE_V1=a b.go", "__HOOKCORE_V2=/work"}},
		{"quoted heredoc", "cat <<'EOF'\n$FILE_PATH\nEOF\necho $CWD", "cat <<'EOF'\n$FILE_PATH\nEOF\necho \"${__HOOKCORE_V1}\"", []string{"__HOOKCORE_V1=/work"}},
		{"dash heredoc", "cat <<-EOF\n\t$CWD\n\tEOF\n", "cat <<-EOF\n\t${__HOOKCORE_V1}\n\tEOF\n", []string{"__HOOKCORE_V1=/work"}},
		{"here string", `cat <<< $CWD`, `cat <<< "${__HOOKCORE_V1}"`, []string{"__HOOKCORE_V1=/work"}},
		{"no dollar", `echo hi`, `echo hi`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := substituteShell(tt.script, varsInput())
			if diff := cmp.Diff(shellVars{script: tt.want, env: tt.env}, got, cmp.AllowUnexported(shellVars{})); diff != "" {
				t.Errorf("substituteShell(%q) mismatch (-want +got):\n%s", tt.script, diff)
			}
		})
	}
}

// trickyValues are file names that try every way out of a shell word.
var trickyValues = []string{
	"plain.go",
	"notes; touch pwned \"$(touch pwned2)\" `touch pwned3`.md",
	"a b  c",
	"*",
	"[a-z]*?",
	"~root",
	"-n",
	"--",
	"'single' \"double\"",
	`back\slash\`,
	"$HOME ${HOME} $$ $(id) $((1+1))",
	"line1\nline2",
	"tab\there",
	"ünïcödé ✓",
	"}{)(|&;<>!#=%",
	"\"$(touch pwned4)\"",
	"'$(touch pwned5)'",
	"",
	" leading and trailing ",
	"x\x00y",
}

// TestSubstituteShellExact runs the substituted commands through the real sh and checks
// that each value comes back as exactly one word with its exact content (conformance case
// 20) and that nothing in it ran.
func TestSubstituteShellExact(t *testing.T) {
	t.Parallel()
	forms := []struct {
		name, script string
		want         func(v string) string
	}{
		{"bare", `printf '%s' $FILE_PATH > out.txt`, func(v string) string { return v }},
		{"quoted", `printf '%s' "$FILE_PATH" > out.txt`, func(v string) string { return v }},
		{"embedded", `printf '%s' "path=$FILE_PATH;" > out.txt`, func(v string) string { return "path=" + v + ";" }},
		{"braces", `printf '%s' ${FILE_PATH} > out.txt`, func(v string) string { return v }},
		{"one word", `printf '[%s]' $FILE_PATH > out.txt`, func(v string) string { return "[" + v + "]" }},
		{"in command substitution", `x="$(printf '%s.' $FILE_PATH)"; printf '%s' "$x" > out.txt`, func(v string) string { return v + "." }},
		{"in backticks", "x=`printf '%s.' $FILE_PATH`; printf '%s' \"$x\" > out.txt", func(v string) string { return v + "." }},
		{"heredoc", "cat > out.txt <<EOF\n<$FILE_PATH>\nEOF", func(v string) string { return "<" + v + ">\n" }},
		{"assignment", `x=$FILE_PATH; printf '%s' "$x" > out.txt`, func(v string) string { return v }},
		{"case", `case $FILE_PATH in *) printf '%s' "$FILE_PATH" > out.txt;; esac`, func(v string) string { return v }},
	}
	for _, f := range forms {
		for i, v := range trickyValues {
			t.Run(f.name+"/"+strings.ReplaceAll(v, "/", "_"), func(t *testing.T) {
				t.Parallel()
				_ = i
				dir := t.TempDir()
				in := &hook.Input{Cwd: dir, HookEventName: "PostToolUse", ToolName: "WriteFile"}
				in.ToolInput, _ = json.Marshal(map[string]string{"path": v})
				c := &Command{Command: f.script, Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent"}}
				d, err := c.Execute(context.Background(), in)
				if err != nil {
					t.Fatalf("Execute: %v (output %q)", err, d.Output)
				}
				got, err := os.ReadFile(filepath.Join(dir, "out.txt"))
				if err != nil {
					t.Fatal(err)
				}
				value := strings.ReplaceAll(v, "\x00", "")
				if in.FilePath() == "" {
					value = ""
				}
				if want := f.want(value); string(got) != want {
					t.Errorf("got %q, want %q", got, want)
				}
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if e.Name() != "out.txt" {
						t.Errorf("the value ran something: %s exists", e.Name())
					}
				}
			})
		}
	}
}

func FuzzSubstitute(f *testing.F) {
	seeds := []string{
		`printf '%s' $FILE_PATH`, `echo "$FILE_PATH"`, `echo "path=$FILE_PATH;"`,
		"cat <<EOF\n$FILE_PATH\nEOF", "cat <<'EOF'\n$FILE_PATH\nEOF", "echo `echo $CWD`",
		`echo $(basename "$FILE_PATH") $TOOL_ARGS.command ${TOOL_NAME}`, `echo '$FILE_PATH' \$EVENT`,
		`printf '%s|%s|%s' $TOOL_NAME $TOOL_ARGS.command "$NO_SUCH_VAR"`, `echo $'\'$FILE_PATH'`,
		`x=$FILE_PATH; case $x in *) :;; esac # $CWD`, `echo "$(( $TOOL_ARGS.n + 1 ))"`,
	}
	for _, s := range seeds {
		f.Add(s, "notes; touch pwned \"$(touch pwned2)\" `touch pwned3`.md")
	}
	f.Fuzz(func(t *testing.T, script, value string) {
		mk := func(v string) *hook.Input {
			in := &hook.Input{HookEventName: v, ToolName: v, Cwd: v, Message: v, Error: v, SessionID: v}
			in.ToolInput, _ = json.Marshal(map[string]string{"path": v, "command": v})
			return in
		}
		a := substituteShell(script, mk(value))
		b := substituteShell(script, mk("other"))
		// Injection-proof: the script text never depends on the values (only, for values
		// over envChunk bytes, on their lengths: the chunk references are joined back).
		if unchunk(a.script) != b.script {
			t.Fatalf("script depends on the value:\n%q\n%q", a.script, b.script)
		}
		parser := syntax.NewParser(syntax.Variant(syntax.LangBash))
		if _, err := parser.Parse(strings.NewReader(script), ""); err != nil {
			return
		}
		if !strings.Contains(script, "$((") && !strings.Contains(script, "((") {
			if _, err := parser.Parse(strings.NewReader(a.script), ""); err != nil {
				t.Fatalf("%q parses but its rewrite %q does not: %v", script, a.script, err)
			}
		}
		_ = inlineShell(script, mk(value))
		_ = hookio.ExpandPlain(script, mk(value))
	})
}

var chunkRefs = regexp.MustCompile(`\$\{(__HOOKCORE_V[0-9]+)_0\}(\$\{__HOOKCORE_V[0-9]+_[0-9]+\})*`)

// unchunk writes the references to a chunked value, ${__HOOKCORE_V1_0}${__HOOKCORE_V1_1}...,
// as the reference to a single variable, ${__HOOKCORE_V1}.
func unchunk(script string) string { return chunkRefs.ReplaceAllString(script, "$${$1}") }
