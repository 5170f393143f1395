package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// maxLoopItems bounds the words of one for loop's list that LoopValues reads; a longer
// list leaves its variable unknown.
const maxLoopItems = 64

// LoopValues returns, for the Bash line command, the values each variable of a for (or
// select) loop of the line's own script takes: the loop's word list, each word as bash
// reads it before expanding a glob (quotes removed; a glob is kept, the reader expands
// it; `~/` is kept). A variable is left out (its value is not known) when a word of a
// list that binds it has an expansion (a command substitution, a variable), a brace, a
// blank or a byte bash would split at, when a list is longer than maxLoopItems or absent
// (`for f; do`: the positional parameters); and when the line may bind it otherwise or
// read it where no such loop binds it: an assignment of it (`f=x`, `local f`, `declare
// f`), an arithmetic expression, a command given its name (read f, unset f, printf -v f,
// mapfile f, export f), an expansion of it other than $NAME or ${NAME}, one outside the
// bodies of its loops, or a $NAME the parse does not read as one (a nested script's). A line that runs eval, source or ., or that package shell cannot
// parse, gives none. Nested scripts (`sh -c '…'`) are not read. Source: stop 33, `for f
// in .claude/*.json; do cp evil "$f"; done`.
func LoopValues(command string) map[string][]string {
	f, ok := parse(command)
	if !ok {
		return nil
	}
	type loop struct {
		values    []string
		from, end uint
	}
	loops := map[string][]loop{}
	bad := map[string]bool{}
	type use struct {
		name string
		at   uint
	}
	var uses []use
	opaque := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ForClause:
			it, ok := n.Loop.(*syntax.WordIter)
			if !ok {
				return true // a C-style loop: its names are in arithmetic
			}
			name := it.Name.Value
			vals, ok := loopItems(it, command)
			if !ok {
				bad[name] = true
				return true
			}
			loops[name] = append(loops[name], loop{values: vals, from: n.DoPos.Offset(), end: n.DonePos.Offset()})
		case *syntax.Assign:
			if n.Name != nil {
				bad[n.Name.Value] = true
			}
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause:
			syntax.Walk(n, func(m syntax.Node) bool {
				if l, ok := m.(*syntax.Lit); ok {
					bad[l.Value] = true
				}
				return true
			})
		case *syntax.ParamExp:
			if n.Param == nil {
				return true
			}
			if !plainParam(n) {
				bad[n.Param.Value] = true
				return true
			}
			uses = append(uses, use{n.Param.Value, n.Pos().Offset()})
		case *syntax.DeclClause:
			for _, a := range n.Args { // local f, declare -n r=f (a nameref binds f)
				if a.Name != nil {
					bad[a.Name.Value] = true
				}
				if a.Value != nil {
					markNames(bad, a.Value.Lit())
				}
			}
		case *syntax.CoprocClause:
			if n.Name != nil {
				markNames(bad, n.Name.Lit())
			}
		case *syntax.CallExpr:
			args := n.Args
			for len(args) > 0 && (args[0].Lit() == "command" || args[0].Lit() == "builtin") {
				args = args[1:]
			}
			if len(args) == 0 {
				return true
			}
			head := args[0].Lit()
			switch {
			case head == "" || head == "eval" || head == "source" || head == ".":
				opaque = true // a command of unknown name, or a script the line does not spell
			case nameBinders()[head]:
				for _, a := range args[1:] {
					markNames(bad, a.Lit()) // read f, unset f, printf -v f, trap 'f=x' …
				}
			}
		}
		return true
	})
	if opaque {
		return nil
	}
	// An expansion of the name that the walk did not see as one (in a nested script, `sh -c
	// 'cp x "$f"'`, or escaped) is another variable's, perhaps bound by a loop of its own.
	at := map[uint]bool{}
	for _, u := range uses {
		at[u.at] = true
	}
	for name := range loops {
		for i := 0; ; {
			j := strings.Index(command[i:], name)
			if j < 0 {
				break
			}
			j += i
			i = j + len(name)
			if i < len(command) && isNameRune(rune(command[i])) {
				continue
			}
			switch {
			case j > 0 && command[j-1] == '$' && !at[uint(j-1)]:
				bad[name] = true
			case j > 1 && command[j-2:j] == "${" && !at[uint(j-2)]:
				bad[name] = true
			}
		}
	}
	for _, u := range uses {
		in := false
		for _, l := range loops[u.name] {
			in = in || u.at > l.from && u.at < l.end
		}
		if !in {
			bad[u.name] = true
		}
	}
	out := map[string][]string{}
	for name, ls := range loops {
		if bad[name] {
			continue
		}
		for _, l := range ls {
			out[name] = append(out[name], l.values...)
		}
	}
	return out
}

// loopItems returns the words of a for loop's list as bash reads them before a glob is
// expanded, each of literal text and quotes only, with no blank, brace or other byte bash
// splits or expands at.
func loopItems(it *syntax.WordIter, src string) ([]string, bool) {
	if !it.InPos.IsValid() || len(it.Items) > maxLoopItems {
		return nil, false
	}
	var out []string
	for _, w := range it.Items {
		var sb strings.Builder
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				sb.WriteString(p.Value)
			case *syntax.SglQuoted:
				if p.Dollar {
					return nil, false
				}
				sb.WriteString(p.Value)
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					l, ok := q.(*syntax.Lit)
					if !ok {
						return nil, false
					}
					sb.WriteString(l.Value)
				}
			default:
				return nil, false
			}
		}
		v := sb.String()
		if v == "" || strings.ContainsAny(v, " \t\n{}\\$`'\"") {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// nameBinders are the builtins that may set a variable given by name in their words (or
// run a string that may: alias, trap).
var nameBinders = sync.OnceValue(func() map[string]bool {
	return setOf("read", "unset", "export", "declare", "typeset", "local", "readonly", "mapfile",
		"readarray", "printf", "getopts", "wait", "let", "alias", "trap", "enable", "select")
})

// markNames marks each name in the text t bad.
func markNames(bad map[string]bool, t string) {
	for _, name := range strings.FieldsFunc(t, func(r rune) bool { return !isNameRune(r) }) {
		bad[name] = true
	}
}

// isNameRune reports whether r may be part of a shell variable's name.
func isNameRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
