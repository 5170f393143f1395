package command

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/hook"
)

// evilN is a tool input whose n would run touch PWNED if bash evaluated it arithmetically.
const evilN = `{"n":"a[$(touch PWNED)]"}`

// TestArithContextVariables checks issue 10 item 6: a context variable that the script
// expands in an arithmetic context must be a plain integer; any other value is an error.
// Each script is substituted for n = 3 and run by bash (where /bin/sh is bash, the value
// would be evaluated), and must print want; for n = a[$(touch PWNED)] the substitution must
// fail with ErrArithValue.
func TestArithContextVariables(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tests := []struct{ name, script, want string }{
		{"$(( ))", `echo $(( $TOOL_ARGS.n + 1 ))`, "4"},
		{"$(( )) braced", `echo $(( ${TOOL_ARGS.n} + 1 ))`, "4"},
		{"$(( )) in quotes", `echo "$(( $TOOL_ARGS.n + 1 ))"`, "4"},
		{"quoted ref in $(( ))", `echo $(( "$TOOL_ARGS.n" + 1 ))`, "4"},
		{"nested $(( ))", `echo $(( ( $TOOL_ARGS.n ) * $(( $TOOL_ARGS.n )) ))`, "9"},
		{"$[ ]", `echo $[ $TOOL_ARGS.n + 2 ]`, "5"},
		{"heredoc", "cat <<EOF\n$(( $TOOL_ARGS.n * 2 ))\nEOF", "6"},
		{"(( )) command", `if (( $TOOL_ARGS.n > 2 )); then echo big; fi`, "big"},
		{"for (( ))", `for ((i=0; i<$TOOL_ARGS.n; i++)); do printf x; done; echo`, "xxx"},
		{"let", `let "m = $TOOL_ARGS.n * 2"; echo $m`, "6"},
		{"subscript", `a=(p q r s); echo ${a[$TOOL_ARGS.n]}`, "s"},
		{"subscript assignment", `a[$TOOL_ARGS.n]=z; echo ${a[3]}`, "z"},
		{"substring", `s=abcdef; echo ${s:$TOOL_ARGS.n:2}`, "de"},
		{"[[ -eq ]]", `[[ $TOOL_ARGS.n -eq 3 ]] && echo yes`, "yes"},
		{"[[ -gt ]] right", `[[ 5 -gt "$TOOL_ARGS.n" ]] && echo yes`, "yes"},
		{"no spaces", `echo $((${TOOL_ARGS.n}*2))`, "6"},
		{"in backquotes", "echo `echo $(( $TOOL_ARGS.n ))`", "3"},
		{"in command substitution", `echo "$(echo $(( $TOOL_ARGS.n + 1 )))"`, "4"},
		{"assignment", `x=$(( $TOOL_ARGS.n )); echo $x`, "3"},
		{"case word", `case $(( $TOOL_ARGS.n )) in 3) echo three;; esac`, "three"},
		{"subscript in double quotes", `a=(p q r s); echo "${a[$TOOL_ARGS.n]}"`, "s"},
		{"quoted subscript", `a=(p q r s); echo ${a["$TOOL_ARGS.n"]}`, "s"},
		{"array element index", `a=([$TOOL_ARGS.n]=z); echo ${a[3]}`, "z"},
		{"slice of $@", `set -- a b c d; echo ${@:$TOOL_ARGS.n}`, "c d"},
		{"other variable forms", `echo $(( $TOOL_ARGS.n + ${TOOL_ARGS.n} + "${TOOL_ARGS.n}" ))`, "9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := &hook.Input{HookEventName: "PreToolUse", ToolName: "Bash", Cwd: dir, ToolInput: json.RawMessage(`{"n":3}`)}
			sv := substituteShell(tt.script, in)
			if sv.err != nil {
				t.Fatalf("n=3: %v", sv.err)
			}
			cmd := exec.Command("bash", "-c", sv.script)
			cmd.Dir, cmd.Env = dir, append(os.Environ(), sv.env...)
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != tt.want {
				t.Errorf("n=3: bash -c %q: %q, %v; want %q", sv.script, out, err, tt.want)
			}
			in.ToolInput = json.RawMessage(evilN)
			if sv := substituteShell(tt.script, in); !errors.Is(sv.err, ErrArithValue) {
				t.Errorf("n=%s: err %v, want ErrArithValue (script %q)", evilN, sv.err, sv.script)
			}
		})
	}
}

// TestArithContextOutside checks that values outside arithmetic are not constrained: a
// file name in [ -f ], a string comparison, a default value, a command substitution inside
// $(( )) and a script whose other parts do not parse as bash arithmetic.
func TestArithContextOutside(t *testing.T) {
	t.Parallel()
	in := &hook.Input{HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: json.RawMessage(`{"n":"a b[c]","command":"x"}`)}
	for _, script := range []string{
		`[ -f "$TOOL_ARGS.n" ] && echo yes`,
		`[[ $TOOL_ARGS.n == x ]]`,
		`echo ${X:-$TOOL_ARGS.n}`,
		`echo $(( $(printf %s "$TOOL_ARGS.n" | wc -c) + 1 ))`,
		`a[1]=$TOOL_ARGS.n; echo "${TOOL_ARGS.command}"`,
		"cat <<'EOF'\n$(( $TOOL_ARGS.n ))\nEOF",
		`echo '$(( $TOOL_ARGS.n ))'`,
	} {
		if sv := substituteShell(script, in); sv.err != nil {
			t.Errorf("%q: %v", script, sv.err)
		}
	}
}

// TestArithContextHook runs a command hook end to end on /bin/sh: with an integer it runs
// (on dash too: the reference is unquoted in $(( ))), with any other value it does not
// start, is not a block, and runs nothing.
func TestArithContextHook(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := &Command{Command: `echo $(( $TOOL_ARGS.n + 1 ))`}
	in := &hook.Input{HookEventName: "PreToolUse", ToolName: "Bash", Cwd: dir, ToolInput: json.RawMessage(`{"n":41}`)}
	dec, err := c.Execute(context.Background(), in)
	if err != nil || strings.TrimSpace(dec.Output) != "42" || dec.Block {
		t.Errorf("n=41: %+v, %v; want output 42", dec, err)
	}
	in.ToolInput = json.RawMessage(evilN)
	dec, err = c.Execute(context.Background(), in)
	if !errors.Is(err, ErrArithValue) || !errors.Is(err, hook.ErrNotStarted) || dec.Block {
		t.Errorf("n=%s: %+v, %v; want ErrArithValue and ErrNotStarted, no block", evilN, dec, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Error("PWNED was created")
	}
}
