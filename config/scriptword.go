package config

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/internal/shbound"
)

// shellWord is one word of the first simple command of a shell command line: text as
// written with its quotes removed and nothing expanded ("~/bin/x.sh", "$HOME/x.sh"), and
// value as the shell expands it. known is false when the value is not known here: the word
// reads a variable Lint does not know, runs something ($(...), <(...), $((...))) or is
// globbed.
type shellWord struct {
	text, value string
	known       bool
}

// firstWords returns the words of the first simple command of the shell command line s
// (the left side of &&, || or a pipe; a compound command or a function gives none), parsed
// with mvdan.cc/sh (bash syntax) and expanded as the shell will expand them, with tilde
// expansion, field splitting and quote removal, by the expand package, in an environment
// holding only vars ("HOME" makes ~ and $HOME known). A line that does not parse, or that
// is past the parser's bounds (internal/shbound), gives none: checkShell reports it.
func firstWords(s string, vars map[string]string) []shellWord {
	if shbound.Check(s) != nil {
		return nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	call, ok := cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...)} // no ReadDir2: no globbing
	words := make([]shellWord, len(call.Args))
	for i, w := range call.Args {
		words[i].text = wordText(s, w)
		if !staticWord(w, vars) {
			continue
		}
		if fields, ok := expandFields(cfg, w); ok && len(fields) == 1 {
			words[i].value, words[i].known = fields[0], true
		}
	}
	return words
}

// expandFields is expand.Fields, with ok false on an error or a panic (an expansion the
// package cannot do without a runner).
func expandFields(cfg *expand.Config, w *syntax.Word) (fields []string, ok bool) {
	defer func() {
		if recover() != nil {
			fields, ok = nil, false
		}
	}()
	fields, err := expand.Fields(cfg, w)
	return fields, err == nil
}

// staticWord reports whether the value of w is known from vars alone: it reads no other
// variable, runs nothing and has no unquoted glob character.
func staticWord(w *syntax.Word, vars map[string]string) bool {
	known := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param == nil || n.Excl || n.Length || n.Width || n.Index != nil || n.Names != 0 {
				known = false
			} else if _, ok := vars[n.Param.Value]; !ok {
				known = false
			}
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			known = false
		}
		return known
	})
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "*?[") {
			return false
		}
	}
	return known
}

// wordText returns w as written in s with its quotes removed: the text of '...' and
// "...", everything else as its source.
func wordText(s string, w *syntax.Word) string {
	var b strings.Builder
	var parts func(ps []syntax.WordPart)
	parts = func(ps []syntax.WordPart) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				parts(p.Parts)
			default:
				b.WriteString(s[p.Pos().Offset():p.End().Offset()])
			}
		}
	}
	parts(w.Parts)
	return b.String()
}
