package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program may run a command that the line passes in an environment variable:
// GIT_EDITOR='rm -rf x' git commit, GIT_SSH_COMMAND, GIT_PAGER, PAGER, MANPAGER, EDITOR,
// VISUAL, LESSOPEN='|cmd', SUDO_ASKPASS, ... (red team, stop 20). No list of such
// variables can be complete, so the value of every assignment, whatever the variable's
// name, is analysed as shell code for deny rules (envValue): a prefix assignment
// (VAR=value cmd), a bare one, export, declare, typeset, local, readonly, env VAR=value
// and sudo VAR=value. A static value is always analysed; a value that is not static (it
// holds $x or $(...)) is analysed as written when it reaches a program's environment (a
// prefix assignment, export, declare -x, env, sudo; or a bare assignment to a name the
// line exports, or under set -a), with its expansions as words of unknown value. The
// variables whose value is a list of directories (PATH, MANPATH, PYTHONPATH, ...) are
// not analysed: a program searches them, it does not run them (a program put in such a
// directory is one written then run: docs/security.md).

// pendingValue is a value that is not static, assigned to a name that the line may export
// later (see settle).
type pendingValue struct {
	name  string
	text  string
	depth int
}

// envValue analyses the value v assigned to name for deny rules (see above); reaches tells
// whether the assignment puts it in a program's environment.
func (b *Commands) envValue(name string, v word, reaches bool, c ctx) {
	b.bindValue(name, v)
	if reaches {
		b.noteDollar(name, v, true)
	}
	if streamValue(v) {
		b.denyAll = true // LESSKEYIN=/dev/fd/3, WGETRC=<(…): a program may read it as code (bashstream.go)
		return
	}
	if listVar(name) {
		return
	}
	switch {
	case v.static, reaches:
		gc := c
		gc.guess = true // a value is read as code on a guess (denyCode)
		b.codeString(v.text, gc)
		b.lessTemplate(name, v, c)
	default:
		b.pending = append(b.pending, pendingValue{name: name, text: v.text, depth: c.depth})
	}
}

// listVar reports whether the variable name holds a list of directories, which programs
// search and do not run: PATH and the names that end in PATH, and a few others.
func listVar(name string) bool {
	return strings.HasSuffix(name, "PATH") || name == "HOME" || name == "PWD" || name == "OLDPWD" ||
		name == "TMPDIR" || name == "GOROOT" || name == "GOBIN"
}

// bindVar records that the line sets the variable name to a value it does not tell: a
// command name read from it is then not the agent's environment (see settle), and its
// value may be any option (bashunknown.go).
func (b *Commands) bindVar(name string) { b.bindValue(name, word{}) }

// bindValue records that the line sets the variable name to v, and what v may be as an
// option (valueSafety; the least of all the values the line sets it to).
func (b *Commands) bindValue(name string, v word) {
	if b.bound == nil {
		b.bound = make(map[string]bool)
	}
	b.bound[name] = true
	b.noteDollar(name, v, false) // make expands it again (bashmake.go)
	b.bindSafety(name, valueSafety(v))
	b.knowValue(name, v)
}

// exportVar records that the line exports name without a value (export NAME, declare -x
// NAME): a value the line assigns to it elsewhere reaches programs.
func (b *Commands) exportVar(name string) {
	if b.exported == nil {
		b.exported = make(map[string]bool)
	}
	b.exported[name] = true
}

// settleDeny applies the line-level rules of the deny-only analyses at the end: a value
// that is not static assigned to a name the line exports (or under set -a) is analysed;
// a command name read from variables the line sets is analysed once per value when their
// values are all known, else makes the line match every deny rule (settleNames); and a
// file or program text read from a variable that the line sets, that bash fills itself,
// that npm defines from its flags (programVar), or any when a sourced file or a name of
// unknown value may set it, makes the line match every deny rule.
func (b *Commands) settleDeny() {
	for _, p := range b.pending {
		if b.all {
			return
		}
		if b.allexport || b.exported[p.name] {
			b.codeString(p.text, ctx{depth: p.depth, guess: true})
		}
	}
	b.settleNames()
	if b.makeRuns && b.makeBinds() {
		b.denyAll = true // a value make may expand again reaches it (bashmake.go)
	}
	if b.all || b.denyAll {
		return
	}
	for _, name := range b.reads {
		if b.bound[name] || commandDerived(name) || b.anyBound || programVar(name) {
			b.denyAll = true
			return
		}
	}
	b.settleOptions()
}

// commandDerived reports whether bash fills the variable name itself from what the line
// holds (shellDerived()), a directory excepted: a directory is not a command.
func commandDerived(name string) bool {
	switch name {
	case "PWD", "OLDPWD", "DIRSTACK":
		return false
	}
	return shellDerived()[name]
}

// assignValue analyses a parsed assignment's value for deny rules (envValue); prefix tells
// whether it is a prefix assignment to a command (FOO=1 cmd), whose value reaches the
// command's environment.
//
// Subscripted and compound assignments are analysed alike, each element's value as code
// (red team 2, finding 1: A[x]='rm -rf x' and A=([k]='rm -rf x') were skipped).
func (b *Commands) assignValue(a *syntax.Assign, src string, prefix bool, c ctx) {
	if a.Naked || a.Name == nil {
		return
	}
	if a.Append {
		b.markUnknown(a.Name.Value) // x+=m: its value is the old one and more (bashvalues.go)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil && !b.all {
				b.envValue(a.Name.Value, renderWord(e.Value, src), prefix, c)
			}
		}
		return
	}
	v := word{static: true}
	if a.Value != nil {
		v = renderWord(a.Value, src)
	}
	b.envValue(a.Name.Value, v, prefix, c)
}

// declValues analyses the values of a parsed declare, typeset, local, export, readonly or
// nameref (the command name variant; flags are the words that are not assignments) for
// deny rules: export and -x put them in programs' environment, and export NAME exports
// a value assigned elsewhere.
func (b *Commands) declValues(variant string, flags []word, args []*syntax.Assign, src string, c ctx) {
	reaches := variant == "export"
	for _, f := range flags {
		if len(f.text) > 1 && f.text[0] == '-' && strings.Contains(f.text, "x") {
			reaches = true
		}
	}
	nameref := variant == "nameref"
	for _, f := range flags {
		nameref = nameref || len(f.text) > 1 && f.text[0] == '-' && strings.Contains(f.text, "n")
	}
	for _, a := range args {
		switch {
		case a.Naked && a.Name != nil && a.Value == nil:
			if reaches {
				b.exportVar(a.Name.Value)
			}
		default:
			b.assignValue(a, src, reaches, c)
		}
		if nameref && a.Name != nil {
			b.bindVar(a.Name.Value) // its value is another variable's: any
		}
	}
}
