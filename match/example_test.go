package match_test

import (
	"encoding/json"
	"fmt"

	"github.com/hookcore/hookcore/match"
)

func ExampleCompileIf() {
	rm, err := match.CompileIf(`Bash(rm *)`)
	if err != nil {
		fmt.Println(err)
		return
	}
	cond, err := match.CompileIf(`tool == "Bash" && args.command =~ /rm\s+-rf\s+\//`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rm.Syntax(), cond.Syntax())
	for _, cmd := range []string{"rm -rf /", "cd build && rm -rf out", "echo 'rm -rf /'"} {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		s := match.NewSubject("PreToolUse", "Bash", args) // one Subject per event
		fmt.Printf("%q: rule %v, condition %v\n", cmd, rm.Match(s), cond.Match(s))
	}

	_, err = match.CompileIf(`tool == "Bash" && args.command =~ /rm/ || tool == "Write"`)
	fmt.Println(err)
	// Output:
	// rule condition
	// "rm -rf /": rule true, condition true
	// "cd build && rm -rf out": rule true, condition false
	// "echo 'rm -rf /'": rule false, condition true
	// offset 39: condition mixes && and ||; use one of them
}

func ExampleCompileMatcher() {
	m, err := match.CompileMatcher("Edit|Write")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Names(), m.Match("write"), m.Match("WriteFile"), m.Match("NotebookEdit"))
	// Output: [Edit Write] true false false
}
