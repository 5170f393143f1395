package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A word whose value is not known when the line is read — a parameter expansion ($f,
// "$f", "$1"), a command, process or arithmetic substitution, a glob — may be an option,
// and for the programs whose options the analysis knows to run code, a word that becomes
// one runs a command as surely as one written out (red team 4: f=-exec; find . $f rm -rf
// x \;, git grep "$f" with f=-O'rm -rf x', sort - * beside a file named
// --compress-program=sh, install -s $f with f=--strip-program=sh). Brace expansion is
// static and is expanded before this (bashbrace.go). For deny rules only, such a word is
// taken to be a code option of the program it is given to when it may be one
// (mayBeOption: its known start does not rule it out) and it stands where an option may:
//
//   - the programs of inertExec(), git's subcommands in gitExec(), and sed (-e, -f): not after
//     "--", not as the value of an option known to take the next word (optionSyntaxes()), and
//     for git grep not after the first operand (git grep stops reading options there);
//   - find: any word of the expression that is not a primary's value may be -exec,
//     -execdir, -ok or -okdir; the words after it up to the next ";" or "+" are then
//     analysed as the command it runs (findUnknown);
//   - Vim and its relatives: a word that may start with '-' or '+' (bashex.go), and an
//     strace -o value that may start with '|' or '!' (bashwrap.go).
//
// Such a word makes the line match every deny rule (unknownOption), unless it only reads
// variables ($x, ${x}, "$x") that the line does not set — those come from the agent's
// environment, which the analysis trusts as it does for a command name read from one
// (settleDeny) — or sets only to values that cannot start an option there (safety,
// settleOptions). A positional parameter and any other expansion fail closed; so does a
// glob that may start with '-', which may match a file the repository ships under an
// option's name. Programs that are not known to be inert already fail closed on such
// words through their suffixes (bashtail.go).

// optionLike reports whether w, a word whose value is not known, may start with '-' or
// '+': its known start (knownStart) is empty or does.
func optionLike(w word) bool {
	p := knownStart(w)
	return p == "" || p[0] == '-' || p[0] == '+'
}

// unknownOption makes the line match every deny rule for w, a word whose value is not
// known that may be a code option (see above), or an option's value that may start with
// '|' or '!' (strace -o, bashwrap.go): at once, or when the line is settled if it sets one
// of the variables w reads.
func (b *Commands) unknownOption(w word) {
	e := w.exp
	if e == nil || e.dyn || e.glob != nil || len(e.vars) == 0 {
		b.denyAll = true
		return
	}
	b.optReads = append(b.optReads, optionRead{vars: e.vars, split: e.split, mid: knownStart(w) != ""})
}

// optionSyntax is what the analysis knows of a program's options beyond its code options:
// the options that always take the next word as their value when it is not attached
// (argShort letters, argLong names, which may be abbreviated), and whether options end at
// the first operand. An option missing here only makes its value count as a word that may
// be an option; one listed wrongly would hide a word, so each comes from the program's
// manual (GNU coreutils sort and install, GNU findutils find, git-grep(1), GNU wget).
type optionSyntax struct {
	argShort      string
	argLong       []string
	stopAtOperand bool
}

// optionSyntaxes holds optionSyntax by program, git subcommands as "git SUB".
var optionSyntaxes = sync.OnceValue(func() map[string]optionSyntax {
	return map[string]optionSyntax{
		"sort": {argShort: "kotST", argLong: []string{"--key", "--output", "--field-separator", "--buffer-size",
			"--temporary-directory", "--files0-from", "--parallel", "--batch-size", "--random-source", "--sort"}},
		"install": {argShort: "mogtS", argLong: []string{"--mode", "--owner", "--group", "--target-directory", "--suffix"}},
		"wget": {argShort: "oaOPUtTiQwlARDIX", argLong: []string{"--output-file", "--append-output", "--output-document",
			"--directory-prefix", "--user-agent", "--tries", "--timeout", "--input-file", "--quota", "--wait", "--level",
			"--accept", "--reject", "--domains", "--include-directories", "--exclude-directories", "--header",
			"--user", "--password", "--post-data", "--post-file", "--referer"}},
		"git grep": {argShort: "efABCm", argLong: []string{"--max-depth", "--threads", "--after-context",
			"--before-context", "--context", "--max-count"}, stopAtOperand: true},
	}
})

// takesNext reports whether the static word t is an option of s whose value is the next
// word: --name without "=", or a cluster of option letters that ends in a letter of
// argShort before any other of them.
func (s optionSyntax) takesNext(t string) bool {
	if strings.HasPrefix(t, "--") {
		if strings.Contains(t, "=") {
			return false
		}
		for _, o := range s.argLong {
			if t == o || longOption(t, o) {
				return true
			}
		}
		return false
	}
	if len(t) < 2 || t[0] != '-' {
		return false
	}
	for j := 1; j < len(t) && isOptionLetter(t[j]); j++ {
		if strings.IndexByte(s.argShort, t[j]) >= 0 {
			return j == len(t)-1
		}
	}
	return false
}

// unknownOptions applies unknownOption to each word of args (the words after the program
// name prog, or after "git SUB") whose value is not known and that may be one of the code
// options opts where an option may stand (see the top of this file). Under xargs, with
// input the line spells, the words xargs appends may be such options: every deny rule
// matches (as for sed and awk, textProgram).
func (b *Commands) unknownOptions(prog string, args []word, opts []string, c ctx) {
	if c.xargs && c.in != nil {
		b.denyAll = true
		return
	}
	syn := optionSyntaxes()[prog]
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case !a.static:
			if mayBeOption(a, opts) {
				b.unknownOption(a)
			}
		case t == "--":
			return
		case syn.takesNext(t):
			i++
		case syn.stopAtOperand && (t == "-" || !strings.HasPrefix(t, "-")):
			return
		}
	}
}

// findActions are find's actions that run a command, up to a ";" or "+" word.
var findActions = []string{"-exec", "-execdir", "-ok", "-okdir"}

// findArgs are find's primaries and options that take the next word as their value (GNU
// findutils find(1); -fprintf takes two). -newerXY is matched by its prefix.
var findArgs = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-lname": 1,
		"-ilname": 1, "-regex": 1, "-iregex": 1, "-regextype": 1, "-type": 1, "-xtype": 1, "-size": 1,
		"-perm": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-mtime": 1, "-atime": 1, "-ctime": 1,
		"-mmin": 1, "-amin": 1, "-cmin": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-used": 1,
		"-links": 1, "-inum": 1, "-samefile": 1, "-fstype": 1, "-maxdepth": 1, "-mindepth": 1,
		"-printf": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2, "-context": 1,
		"-files0-from": 1, "-D": 1,
	}
})

// findUnknown analyses, for deny rules, a word of find's arguments whose value is not known
// and that may be one of findActions (args[i], not a primary's value). A word that only
// reads variables is settled by what the line sets them to (unknownOption). For any other
// (a substitution, a glob) the words after it up to the next ";" or "+" are the command
// the action runs; a glob or an unquoted substitution may hold the action and the
// command's first words too, so the command then starts at the word itself (unknownName
// fails closed on it). Without a ";" or "+" after it, static or not, find runs nothing.
func (b *Commands) findUnknown(args []word, i int, c ctx) {
	w := args[i]
	if !mayBeWord(w, findActions) {
		return
	}
	e := w.exp
	if e != nil && !e.dyn && e.glob == nil && len(e.vars) > 0 {
		b.unknownOption(w)
		return
	}
	from := i + 1
	if e == nil || e.glob != nil || e.split {
		from = i // "-exec rm -rf x ;" may all be in it
	}
	j := i + 1
	end := from == i
	for ; j < len(args); j++ {
		if !args[j].static {
			end = true // it may be ";"
		}
		if args[j].static && (args[j].text == ";" || args[j].text == "+") {
			end = true
			break
		}
	}
	if !end || from >= j {
		return
	}
	b.denyScope(func() {
		if c.depth > maxShellDepth {
			b.all = true
			return
		}
		b.addCall(args[from:j], c)
	})
}

// findArgWords returns how many words after args[i] are the value of a find primary
// (findArgs()), 0 for a word that is not one.
func findArgWords(t string) int {
	if n, ok := findArgs()[t]; ok {
		return n
	}
	if strings.HasPrefix(t, "-newer") && len(t) == len("-newerXY") {
		return 1
	}
	return 0
}

// safety is what the values a variable is set to may be when a word reads it where a code
// option may stand: the least over every value the line sets it to.
type safety uint8

const (
	mayStartOption safety = iota // a value may start with '-' or '+', or is not known
	quotedSafe                   // "$x" starts no option; $x may (blanks or a glob in a value)
	fieldSafe                    // neither $x nor "$x" starts an option
)

// valueSafety returns the safety of v, a value bound to a variable: a static value is
// fieldSafe unless it starts with '-' or '+' (an option; '|' or '!' too, a command in
// strace's -o: mayStartOption) or holds a blank or a glob byte (quotedSafe); a glob (a
// for loop's item) whose known start is not one of those is quotedSafe (a file name may
// hold blanks); any other value mayStartOption.
func valueSafety(v word) safety {
	if v.static {
		switch {
		case v.text != "" && strings.IndexByte("-+|!", v.text[0]) >= 0:
			return mayStartOption
		case strings.ContainsAny(v.text, " \t\n*?["):
			return quotedSafe
		}
		return fieldSafe
	}
	if v.exp != nil && v.exp.glob != nil {
		if p := knownStart(v); p != "" && strings.IndexByte("-+|!", p[0]) < 0 {
			return quotedSafe
		}
	}
	return mayStartOption
}

// bindSafety lowers the safety of the variable name to s.
func (b *Commands) bindSafety(name string, s safety) {
	if b.optSafe == nil {
		b.optSafe = make(map[string]safety)
	}
	if old, ok := b.optSafe[name]; !ok || s < old {
		b.optSafe[name] = s
	}
}

// bindItems records the variable of a for loop, set to each of items (brace expansions
// expanded; bash expands them there too), or to the positional parameters without items.
func (b *Commands) bindItems(name string, items []*syntax.Word, src string, br *braces) {
	words, ok := renderArgs(items, src, br)
	if !ok || len(items) == 0 {
		b.bindVar(name)
		return
	}
	for _, w := range words {
		b.bindValue(name, w)
	}
}

// optionRead is a word that only reads variables, where a code option may stand
// (unknownOption): it is settled when the line's bindings are known (settleOptions).
type optionRead struct {
	vars  []string
	split bool // unquoted: word splitting and globbing apply to the values
	mid   bool // the word starts with literal text: the values are inside an option
}

// settleOptions makes the line match every deny rule when a word of optReads reads a
// variable that bash fills itself, that a sourced file or a name of unknown value may
// set, or that the line sets to a value that may start an option there (safety): for a
// word that starts with literal text ("--c$x"), any value the line sets.
func (b *Commands) settleOptions() {
	for _, r := range b.optReads {
		need := quotedSafe
		if r.split {
			need = fieldSafe
		}
		for _, name := range r.vars {
			if commandDerived(name) || b.anyBound {
				b.denyAll = true
				return
			}
			if !b.bound[name] {
				continue // the agent's environment
			}
			if r.mid || r.split && b.bound["IFS"] || b.optSafe[name] < need {
				b.denyAll = true
				return
			}
		}
	}
}
