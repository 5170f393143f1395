package command

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/internal/shbound"
)

// Context variables in arithmetic (issue 10 item 6). Bash evaluates the value of a
// variable expanded in an arithmetic context as an arithmetic expression, and an array
// subscript in it is expanded: a value a[$(touch PWNED)] in $(( $TOOL_ARGS.n + 1 )) runs
// touch, however the reference is quoted; dash refuses the quoted reference as a syntax
// error (exit 2, read as a block). So a context variable that the script expands in an
// arithmetic context must be a plain integer (an optional '-' and 1 to 18 decimal digits);
// it is then substituted as an unquoted reference (${__HOOKCORE_V1}), which every sh
// accepts there, and any other value is an error of the hook (ErrArithValue): it does not
// start, so it neither runs nor blocks (unless on_error says block).
//
// The arithmetic contexts are found by parsing the script as bash (mvdan.cc/sh): $((..)),
// $[..], ((..)), for ((..)), let, array subscripts (${a[..]}, a[..]=, a=([..]=v)), substring offsets
// and lengths (${s:..:..}), and the operands of [[ -eq, -ne, -lt, -le, -gt, -ge ]]. A
// script that does not parse (or is past internal/shbound's bounds) has every reference
// treated as arithmetic. A value the script first copies into a variable of its own and
// then uses in arithmetic (n=$TOOL_ARGS.n; echo $((n+1))) is outside what a substitution
// can see: that is the script's own code (docs/security.md).

// ErrArithValue is wrapped by the error of a command hook whose context variable is used in
// an arithmetic context and is not a plain integer.
var ErrArithValue = fmt.Errorf("context variable in an arithmetic context is not a plain integer")

// arithRefs returns the offsets in script of the '$' of each parameter expansion that is in
// an arithmetic context, or all=true when script cannot be parsed. Scripts without any
// arithmetic marker are not parsed.
func arithRefs(script string) (offs map[int]bool, all bool) {
	if !strings.Contains(script, "((") && !strings.Contains(script, "$[") && !strings.Contains(script, "let") &&
		!strings.Contains(script, "[") && !strings.Contains(script, "${") {
		return nil, false
	}
	if shbound.Check(script) != nil {
		return nil, true
	}
	// $TOOL_ARGS.x and ${TOOL_ARGS.x} are not bash: each context variable is masked as a
	// plain parameter expansion of the same length ($xxxxxxxxxxx, ${xxxxxxxxxx}), so that
	// the script parses and the offsets stay those of the script.
	masked := scanShell(script, func(b *strings.Builder, _ string, _ quoting, off int) {
		_, end, _ := hookio.At(script, off)
		n := end - off
		if script[off+1] == '{' {
			b.WriteString("${" + strings.Repeat("x", n-3) + "}")
		} else {
			b.WriteString("$" + strings.Repeat("x", n-1))
		}
	})
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(masked), "")
	if err != nil {
		return nil, true
	}
	offs = map[int]bool{}
	mark := func(n syntax.Node) {
		if n == nil {
			return
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false // a command of its own; its words are not arithmetic
			case *syntax.ParamExp:
				offs[int(n.Pos().Offset())] = true
			}
			return true
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			mark(n.X)
		case *syntax.ArithmCmd:
			mark(n.X)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				mark(x)
			}
		case *syntax.CStyleLoop:
			mark(n.Init)
			mark(n.Cond)
			mark(n.Post)
		case *syntax.ParamExp:
			if n.Index != nil {
				mark(n.Index)
			}
			if n.Slice != nil {
				mark(n.Slice.Offset)
				mark(n.Slice.Length)
			}
		case *syntax.Assign:
			if n.Index != nil {
				mark(n.Index)
			}
		case *syntax.ArrayElem:
			if n.Index != nil {
				mark(n.Index)
			}
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
				mark(n.X)
				mark(n.Y)
			}
		}
		return true
	})
	return offs, false
}

// plainInteger reports whether v is an optional '-' and 1 to 18 decimal digits.
func plainInteger(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if v == "" || len(v) > 18 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}
