package shell

import "testing"

// FuzzTextPrograms: the sed and awk readers (bashtext.go, bashawk.go) and the echo and
// printf emulation (bashstdin.go) end without a panic on any text.
func FuzzTextPrograms(f *testing.F) {
	for _, s := range []string{"1e rm -rf d", "s/x/y/e", "s/[/]/x/g;p", "$a\\\nfoo", "y/ab/cd/",
		`BEGIN{system("rm -rf d")}`, `{print | "sort"}`, `/a|b/ {n++}`, `"date" | getline d`, "%s -rf %b\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := &Commands{}
		b.denyScope(func() { b.sedScript(s, ctx{}) })
		b = &Commands{}
		b.denyScope(func() { b.awkProgram(s, ctx{}) })
		printfText([]word{{text: s, static: true}, {text: "a", static: true}})
		echoText([]word{{text: "-e", static: true}, {text: s, static: true}})
	})
}
