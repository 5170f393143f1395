package shell

import "strings"

// A command name read from a variable where a program's suffix may start (bashtail.go's
// tails: go test -run "Test$x", npm run "build:$pkg") is trusted when the line does not set
// the variable (the agent's environment), and made every deny rule match when it does:
// the line may set it to rm. When every value the line can give the variable is known,
// the suffix is analysed once per value instead, as the literal suffix would be (stop 33:
// `x=1; go test -run "Test$x"` and `for i in 1 2; do go test -run "Test$i"; done` matched
// the rm guard). A variable's values are known when each binding of it on the line is a
// static word without a '~' (x=v, x=(v w), export, declare, local, readonly, env x=v,
// a for or select loop's items, brace expansions expanded: bindValue) and nothing else may
// set or change it:
//
//   - a binding whose value is not static (x=$(cat f), a glob item), or by name (read x,
//     printf -v x, mapfile x, getopts, ${x:=v}, a nameref), or an append (x+=v), or a
//     subscripted name given as a word (declare 'x[0]=v'): the variable's values are not
//     known (markUnknown);
//   - a name in arithmetic ((x=5)), (( x++ )), let x=5, a[x=1]): not known;
//   - an attribute that changes values (declare -l, -u, -c, -i, -n, on any name): no
//     variable's values are known (attrs);
//   - source or a name of unknown value (anyBound), and the names bash fills itself
//     (commandDerived), fail closed as before.
//
// The bindings are the union over the whole line, in any order, in subshells and nested
// scripts too: a value the variable cannot have at the read only makes more texts. A
// value is substituted for the word's holes (several variables: each combination); an
// unquoted expansion is split by bash, so a value with a blank or a byte that globbing,
// quoting or extglob reads there, or a line that sets IFS, leaves it unresolved; an
// unquoted expansion of an empty value is no word. The substituted suffix is analysed by
// addCall in the context of the read, and the substituted word by operandCode (a value
// with a blank is code: x='rm -rf /'; go run . "$x"). Reads whose context the settling
// cannot repeat (a standard input, xargs, find -exec's braces, a pipe's feeders), and
// lines past maxNameTries substitutions, match every deny rule as before. Only deny
// rules read these texts (denyScope); allow rules are unchanged.

// maxNameValues bounds the static values kept per variable; more leave it unknown.
const maxNameValues = 64

// maxNameTries bounds the substituted suffixes analysed for one line, and maxNameBytes
// the bytes of the values substituted in them; past either every deny rule matches.
const (
	maxNameTries = 256
	maxNameBytes = 1 << 20
)

// nameRead is a command whose name words[0] only reads variables, met inside denyScope
// (unknownName), settled when the line's bindings are known (settleNames).
type nameRead struct {
	words    []word
	c        ctx
	guessing int  // Commands.guessing at the read
	lines    bool // read in a guessed text of more than one command (Commands.guessLines)
}

// knowValue records v as a value the line binds name to: a static value without a '~'
// (bash expands a tilde at the start and after each ':' of an assignment's value) and
// without '$', '`' or '\' (which the program given the value may expand), or,
// for any other, that name's values are not known. A name with a subscript or an append
// ("x[0]", "x+": declare given words) is its variable's, whose values are then not known.
func (b *Commands) knowValue(name string, v word) {
	if base := strings.TrimSuffix(name, "+"); base != name {
		b.markUnknown(base)
		return
	}
	if base, _, ok := strings.Cut(name, "["); ok {
		b.markUnknown(base)
		return
	}
	// A '$', '`' or '\' in the text is expanded again by the program the value is given
	// to (make's ${RM} is "rm -f", npm's npm_config_*, a recipe's $$): not a known value
	// (red team round 62).
	if !v.static || strings.ContainsAny(v.text, "~$`\\") || len(b.values[name]) >= maxNameValues {
		b.markUnknown(name)
		return
	}
	b.binds++
	if b.values == nil {
		b.values = make(map[string][]string)
	}
	for _, old := range b.values[name] {
		if old == v.text {
			return
		}
	}
	b.values[name] = append(b.values[name], v.text)
}

// markUnknown records that the line may set the variable name to a value it does not
// know (see the top of this file).
func (b *Commands) markUnknown(name string) {
	b.binds++
	if b.unknown == nil {
		b.unknown = make(map[string]bool)
	}
	b.unknown[name] = true
	if b.bound == nil {
		b.bound = make(map[string]bool)
	}
	b.bound[name] = true
}

// knownValues returns the values the line may give the variable name, and whether they
// are all known.
func (b *Commands) knownValues(name string) ([]string, bool) {
	if b.attrs || b.anyBound || b.unknown[name] || commandDerived(name) || !b.bound[name] {
		return nil, false
	}
	vs := b.values[name]
	return vs, len(vs) > 0
}

// settleNames settles the reads of nameReads (see the top of this file): a read of
// variables the line does not set is the agent's environment; one of variables whose
// values are all known is analysed once per value; any other makes every deny rule match.
// The analyses may meet more such reads, which are settled in turn, and programs that may
// read the streams the line spells (settleStreams is run again for them); one that binds a
// variable, exports one, defines an alias, or adds a stream or an expansion the line's
// settling already read matches every deny rule.
func (b *Commands) settleNames() {
	binds, anyBound, attrs := b.binds, b.anyBound, b.attrs
	aliases, exported, allexport := len(b.aliases), len(b.exported), b.allexport
	readers, ambient, expand := len(b.readers), len(b.ambient), b.expand
	tries, size := 0, 0
	for i := 0; i < len(b.nameReads) && !b.all && !b.denyAll; i++ {
		r := b.nameReads[i]
		vars := r.words[0].exp.vars
		set := false
		for _, v := range vars {
			set = set || b.bound[v] || commandDerived(v) || b.anyBound
		}
		if !set {
			if r.guessing > 0 && (len(r.words) > 1 || r.lines || !environmentWord(r.words[0].text) || programVars(vars)) {
				// A command of a text read as code on a guess (a make recipe given by -E,
				// npm exec -c's script) may read a variable that program defines for it
				// (make's RM is "rm -f", npm's npm_config_*; `-E 'RM += -r d'` appends to
				// it), not the agent's: its name is not known (red team rounds 62 and 63:
				// make -E 'all: ; ${RM}r /tmp/v', -E 'RM += -r v' -E 'all: ; ${RM}', and
				// '${A}${B}' ran rm). A lone word with one expansion, not followed by a
				// name's letters, stays a word: PREFIX=$HOME, make -C "$DIR", go build -o
				// "$OUT/bin", go test -run "Test$i", vim -c '1,$d'; but not one of npm's
				// variables, whatever is around it (programVars; round 64:
				// npm exec -c 'r${npm_config_preid}' --preid='m -rf v').
				b.denyAll = true
				return
			}
			continue // the agent's environment
		}
		combos, ok := b.combinations(vars, maxNameTries-tries)
		if !ok || !repeatable(r.c) {
			b.denyAll = true
			return
		}
		tries += len(combos)
		for _, vals := range combos {
			for _, v := range vals {
				size += len(v)
			}
			if size > maxNameBytes {
				b.denyAll = true
				return
			}
			sub, ok := substitute(r.words[0], vals, b.bound["IFS"])
			if !ok {
				b.denyAll = true
				return
			}
			b.analyseSuffix(r, sub)
		}
	}
	if len(b.readers) != readers && len(b.ambient) > 0 && !b.all {
		n := len(b.nameReads)
		b.settleStreams() // the streams the line spells, for the programs these analyses met
		if len(b.nameReads) != n {
			b.denyAll = true
		}
	}
	if b.binds != binds || b.anyBound != anyBound || b.attrs != attrs || len(b.ambient) != ambient || b.expand != expand ||
		len(b.aliases) != aliases || len(b.exported) != exported || b.allexport != allexport {
		b.denyAll = true // the line's settling read what these analyses changed
	}
}

// environmentWord reports whether t, a word's text (in double quotes or not), holds one
// parameter expansion ($NAME or ${NAME}) not followed by more of a command's name: alone,
// before a path ("$HOME/proj"), or after literal text ("Test$i"). "${RM}r" and "${A}${B}"
// are not: a program that expands the word again (make's RM, npm's npm_config_*) makes a
// command of them (red team rounds 62 and 63). A literal before the expansion is one word
// ("Test$i"); npm's variables are caught there by programVars (round 64).
func environmentWord(t string) bool {
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		t = t[1 : len(t)-1]
	}
	if strings.Count(t, "$") != 1 {
		return false
	}
	_, rest, _ := strings.Cut(t, "$")
	if inner, ok := strings.CutPrefix(rest, "{"); ok {
		end := strings.IndexByte(inner, '}')
		if end <= 0 || strings.IndexFunc(inner[:end], func(r rune) bool { return !isNameRune(r) }) >= 0 {
			return false
		}
		rest = inner[end+1:]
	} else {
		n := 0
		for n < len(rest) && isNameRune(rune(rest[n])) && (n > 0 || rest[n] < '0' || rest[n] > '9') {
			n++
		}
		if n == 0 {
			return false
		}
		rest = rest[n:]
	}
	return rest == "" || rest[0] == '/'
}

// programVars reports whether vars holds a variable that a program defines for the
// scripts it runs from values the line gives it, and so is not the agent's environment:
// npm's, yarn's, pnpm's and bun's npm_* (npm_config_* from their --NAME=VALUE flags,
// npm_package_* from package.json). In a text read as code on a guess such a read names
// a command wherever it stands in the word: npm exec -c 'r${npm_config_preid}'
// --preid='m -rf v' runs rm (red team round 64).
func programVars(vars []string) bool {
	for _, v := range vars {
		if programVar(v) {
			return true
		}
	}
	return false
}

// programVar reports whether the variable name is one of those programVars looks for.
func programVar(name string) bool { return len(name) >= 4 && strings.EqualFold(name[:4], "npm_") }

// analyseSuffix analyses, for deny rules, the command of the read r with sub, the words of
// r.words[0] with values substituted, in its place: as addCall and tails do for a literal
// suffix.
func (b *Commands) analyseSuffix(r nameRead, sub []word) {
	b.denyScope(func() {
		saved := b.guessing
		b.guessing = r.guessing
		defer func() { b.guessing = saved }()
		if words := append(sub[:len(sub):len(sub)], r.words[1:]...); len(words) > 0 {
			b.addCall(words, r.c)
		}
		gc := r.c
		gc.guess = true
		for _, w := range sub {
			if b.all {
				return
			}
			b.operandCode(w, gc)
		}
	})
}

// repeatable reports whether a read in the context c can be analysed again when the line
// is settled: a context with no standard input, no words xargs or find add, and no pipe's
// feeders.
func repeatable(c ctx) bool {
	return c.in == nil && !c.xargs && !c.braces && c.marker == "" && c.feed == nil
}

// combinations returns each assignment of known values to the distinct variables of
// vars, as the value of each of vars in order, up to limit of them; false when a
// variable's values are not known or there are more than limit.
func (b *Commands) combinations(vars []string, limit int) ([][]string, bool) {
	var names []string
	for _, v := range vars {
		names = appendNew(names, v)
	}
	n := 1
	values := make([][]string, len(names))
	for i, name := range names {
		vs, ok := b.knownValues(name)
		if !ok || n*len(vs) > limit {
			return nil, false
		}
		n *= len(vs)
		values[i] = vs
	}
	out := make([][]string, 0, n)
	for k := 0; k < n; k++ {
		pick := make(map[string]string, len(names))
		rest := k
		for i, name := range names {
			pick[name] = values[i][rest%len(values[i])]
			rest /= len(values[i])
		}
		vals := make([]string, len(vars))
		for i, v := range vars {
			vals[i] = pick[v]
		}
		out = append(out, vals)
	}
	return out, true
}

// appendNew appends s to list unless list holds it.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// splitBytes are the bytes of an unquoted expansion's result (or of the literal text
// beside it) that leave it unresolved (substitute): the blanks of the default IFS, at
// which bash splits it, and the bytes of glob and extglob patterns and their escapes,
// with which it may name files. Tilde and brace expansion, quote removal and the
// operators come before the expansion and do not read its result.
const splitBytes = " \t\n*?[]()\\"

// substitute returns the words w becomes with vals, the values of w.exp.vars in order, in
// place of its holes: one word, or none for an unquoted expansion of nothing. It reports
// false when w is not made of literal text and plain variables only, starts with a tilde,
// or is unquoted (split) while its text holds one of splitBytes, or ifs (the line sets
// IFS).
func substitute(w word, vals []string, ifs bool) ([]word, bool) {
	e := w.exp
	if e == nil || e.dyn || e.glob != nil || w.tilde || len(e.vars) != len(vals) {
		return nil, false
	}
	var sb strings.Builder
	i := 0
	for _, p := range w.pieces {
		if !p.hole {
			sb.WriteString(p.text)
			continue
		}
		if i >= len(vals) {
			return nil, false
		}
		sb.WriteString(vals[i])
		i++
	}
	if i != len(vals) {
		return nil, false
	}
	if e.split && (ifs || strings.ContainsAny(sb.String(), splitBytes)) {
		return nil, false
	}
	if e.split && sb.Len() == 0 {
		return nil, true
	}
	return []word{{text: sb.String(), static: true}}, true
}
