package match

import "strings"

// lineFacts is what a names clause reads from the whole line before it reads its words: the
// values the line assigns to variables, which an expansion of the variable may give back
// (whole, trimmed, split or joined), and the constructs that hide a name from the word test.
type lineFacts struct {
	// vals holds, for each variable the line assigns a value to (NAME=v and NAME+=v words,
	// as declare, local, export and an environment prefix write them, and the elements of
	// NAME=(...)), its values in the order the line writes them.
	vals map[string][][]item
	// waive is set when the line decodes text into a variable or an expansion (printf -v,
	// ${x@P}, ${x@E}, read or mapfile on a line with a here-document or here-string,
	// ${!x}, declare -n): any expansion may then be the whole name, none of it written.
	waive bool
	// catalog is set when the line names TEXTDOMAIN or TEXTDOMAINDIR, so that a $"..."
	// string may be translated into any text, the whole name included.
	catalog bool
	// join is set when the line defines an alias whose value ends in a backslash, which
	// joins the alias to the line after it; history when it may turn history expansion on
	// and a later word holds ! or ^. Either makes every names clause hold (fail closed).
	join, history bool
	// built counts the items made for expansions of the line's variables; over is set when
	// it passes budget, and the clause then holds (fail closed), so the work stays linear.
	built, budget int
	over          bool
	// pool holds every word of the line, the values bash may give a parameter it sets
	// without an assignment (names_set.go); reads and loops the variables that read,
	// mapfile or getopts (parts of words) and for or select (whole words) set; sets the
	// models built for such parameters, by name and operator.
	pool         [][]item
	reads, loops map[string]bool
	sets         map[string]*setModel
	// scanned is set once scanLine has read the line, so that a later reading of its words
	// does not record the values ${x:=w} and ${x=w} assign again.
	scanned bool
}

// scanLine reads the facts of a line (see lineFacts).
func scanLine(text string) *lineFacts {
	lf := &lineFacts{catalog: mentionsCatalog(text), budget: workBudget(text)}
	var cmd cmdState
	array := ""    // the array whose elements the next words are
	hist := false  // a set command may have turned history expansion on
	reads := false // read, mapfile or readarray runs
	eachWord(text, lf, func(wd *word) bool {
		before, cont := cmd.name, cmd.begun && !cmd.start // the command this word may go on
		name, first := cmd.word(wd)
		w, raw := wd.items, wd.raw
		if cont && (before == cmdRead || before == cmdLoop) && wd.raw[0] != '\'' && wd.raw[0] != '"' {
			lf.setTarget(w, before) // its part before a ; & or | (read IFS; ...)
		}
		if strings.Contains(raw, "${!") || strings.Contains(raw, "@P}") || strings.Contains(raw, "@E}") {
			lf.waive = true
		}
		if hist && (strings.IndexByte(raw, '!') >= 0 || raw[0] == '^') {
			lf.history = true
		}
		if array != "" {
			if j := parenAt(w, ')'); j >= 0 {
				lf.assign(array, w[:j])
				array = ""
			} else {
				lf.assign(array, w)
			}
			return true
		}
		lf.pool = append(lf.pool, expand(w))
		if !first && (name == cmdRead || name == cmdLoop) {
			lf.setTarget(w, name)
		}
		switch {
		case name == cmdRead:
			reads = true
		case first || name == cmdOther || name == cmdPrefix:
		case name == cmdPrintf && strings.HasPrefix(lits(w), "-v"):
			lf.waive = true
		case name == cmdDeclare && isOption(lits(w), 'n'):
			lf.waive = true
		case name == cmdAlias && backslashEnd(raw):
			lf.join = true
		case name == cmdSet:
			head := lits(w)
			if !static(w) || head == "history" || head == "histexpand" || isOption(head, 'H') {
				hist = true
			}
		}
		for i := 0; i <= len(w); i++ { // each assignment of the word, after ; & or |
			if i == 0 || isSep(w[i-1]) {
				array = lf.assignWord(w[i:], raw, array)
			}
		}
		return true
	})
	if reads && strings.Contains(text, "<<") {
		lf.waive = true
	}
	lf.scanned = true
	return lf
}

// assignWord reads w, the part of a word from where it may start a command, as an
// assignment, and returns the array whose elements the next words are ("" for none). The
// value ends at a ; & or |, and is also read whole, as it would be if those were quoted.
func (lf *lineFacts) assignWord(w []item, raw, array string) string {
	if !isAssignment(w) {
		return array
	}
	v, _ := assignment(w)
	if v.name == "BASH_ALIASES" && backslashEnd(raw) {
		lf.join = true
	}
	if len(v.value) > 0 && v.value[0].kind == itAny && v.value[0].c == '(' {
		elems := v.value[1:]
		if j := parenAt(elems, ')'); j >= 0 {
			lf.assign(v.name, elems[:j])
			return array
		}
		lf.assign(v.name, elems)
		return v.name
	}
	for j, it := range v.value {
		if isSep(it) {
			lf.assign(v.name, v.value[:j])
			break
		}
	}
	lf.assign(v.name, v.value)
	return array
}

// isSep reports whether it is a written ; & or |, which may end a command.
func isSep(it item) bool { return it.kind == itLit && strings.IndexByte(";&|", it.c) >= 0 }

// workBudget bounds the items a names clause makes and visits for a line: linear in its
// length.
func workBudget(text string) int { return 64*len(text) + 1<<12 }

// mentionsCatalog reports whether text, quotes and backslashes dropped, holds TEXTDOMAIN
// in any case (TEXTDOMAIN and TEXTDOMAINDIR choose the catalog $"..." is translated with).
func mentionsCatalog(text string) bool {
	const word = "textdomain"
	for i := 0; i < len(text); i++ {
		if lower(text[i]) != word[0] {
			continue
		}
		k := 0
		for j := i; j < len(text) && k < len(word); j++ {
			switch c := lower(text[j]); {
			case c == word[k]:
				k++
			case c != '\'' && c != '"' && c != '\\':
				j = len(text)
			}
		}
		if k == len(word) {
			return true
		}
	}
	return false
}

// expand returns a copy of the items of w, braces expanded.
func expand(w []item) []item {
	v := append([]item(nil), w...)
	for _, it := range v {
		if it.kind == itBrace {
			return parseBraces(v)
		}
	}
	return v
}

// assign adds a value of a variable (a copy of the items; braces expanded).
func (lf *lineFacts) assign(name string, value []item) {
	if len(value) == 0 {
		return
	}
	v := expand(value)
	if lf.vals == nil {
		lf.vals = map[string][][]item{}
	}
	lf.vals[name] = append(lf.vals[name], v)
}

// has reports whether the line assigns the variable name or bash may set it from the
// line's words.
func (lf *lineFacts) has(name string) bool {
	_, ok := lf.vals[name]
	set, _ := lf.setBy(name)
	return ok || set
}

// wrap makes the items of the expansion p, which end w, a choice between them (the
// variable's value from before the line: any text) and what its values on the line may give.
func (lf *lineFacts) wrap(w []item, p param) []item {
	m, ok := lf.model(p)
	if set, whole := lf.setBy(p.name); set && p.op != "@P" && p.op != "@E" {
		m, ok = lf.setParam(p, whole), true
	}
	if !ok {
		return w
	}
	asIs := append([]item(nil), w[p.start:]...)
	return append(w[:p.start], item{kind: itChoice, alts: [][]item{asIs, m}})
}

// model returns what the expansion p of a variable the line assigns may give, made of its
// values: each of them or none, in the order written, joined by nothing, a word break or a
// first byte of an IFS value the line sets; when the line sets IFS, split anywhere. An
// operator that trims (${x:1}, ${x#X}, ${x%X}) gives any substring of that; one that
// replaces (${x/X/Y}) may leave out any of its items and put the replacement after any.
// ${x@P} and ${x@E} decode it: no model, the line waives the count (lineFacts.waive).
func (lf *lineFacts) model(p param) ([]item, bool) {
	return lf.modelOf(p, lf.vals[p.name], false)
}

// modelOf is model for the values given; set (a parameter bash sets from the line's
// words) joins them by a word break, and by nothing or an IFS byte only when the line sets
// IFS.
func (lf *lineFacts) modelOf(p param, values [][]item, set bool) ([]item, bool) {
	trim, cut, ok := opKind(p.op)
	if !ok {
		return nil, false
	}
	var rep []item
	if cut {
		rep = replacement(p.op)
	}
	ifs, split := lf.vals["IFS"]
	sep := [][]item{nil}
	if set && !split {
		sep = [][]item{{{kind: itBreak}}}
	}
	if split {
		sep = append(sep, []item{{kind: itBreak}})
		for _, v := range ifs {
			sep = append(sep, v[:1])
		}
	}
	var out []item
	for k, v := range values {
		if lf.built += len(v); lf.built > lf.budget {
			lf.over = true
			return nil, false
		}
		if k > 0 && (len(sep) > 1 || sep[0] != nil) {
			out = append(out, item{kind: itChoice, alts: sep})
		}
		m := make([]item, 0, len(v))
		for _, it := range v {
			switch {
			case cut:
				alts := [][]item{{it}, nil}
				if rep != nil {
					alts = append(alts, rep)
				}
				m = append(m, item{kind: itChoice, alts: alts})
			case split && it.kind == itLit:
				m = append(m, item{kind: itChoice, alts: [][]item{{it}, {{kind: itBreak}}}})
			default:
				m = append(m, it)
			}
		}
		if trim {
			out = append(out, m...) // the substring's ends do what leaving values out does
		} else {
			out = append(out, item{kind: itChoice, alts: [][]item{m, nil}})
		}
	}
	if trim {
		out = []item{{kind: itSub, alts: [][]item{out}}}
	}
	return out, true
}

// opKind tells what the operator text op of an expansion does to the value: takes any part
// of it (trim: ${x:1}, ${x#X}, ${x%X}), may leave out any of its bytes (cut: ${x/X/Y}), or
// decodes it (ok false: ${x@P}, ${x@E}); other operators give the value as it is.
func opKind(op string) (trim, cut, ok bool) {
	switch {
	case op == "" || strings.IndexByte("^,~-=+?", op[0]) >= 0:
	case op[0] == ':' && len(op) > 1 && strings.IndexByte("-=+?", op[1]) >= 0:
	case op == "@P" || op == "@E":
		return false, false, false
	case op[0] == '@':
	case op[0] == '/':
		cut = true
	default:
		trim = true
	}
	return trim, cut, true
}

// replacement returns the items of the replacement text of a ${x/pat/rep} operator ("/pat/rep",
// "//pat/rep", "/#pat/rep", "/%pat/rep"), or nil when it has none.
func replacement(op string) []item {
	op = op[1:]
	if op != "" && strings.IndexByte("/#%", op[0]) >= 0 {
		op = op[1:]
	}
	j := -1
	for i := 0; i < len(op); i++ {
		if op[i] == '\\' {
			i++
		} else if op[i] == '/' {
			j = i
			break
		}
	}
	if j < 0 {
		return nil
	}
	var rep []item
	for i := j + 1; i < len(op); i++ {
		switch c := op[i]; c {
		case '\'', '"', '\\':
		case '$', '`':
			rep = append(rep, item{kind: itAny})
		default:
			rep = append(rep, item{kind: itLit, c: c})
		}
	}
	return rep
}

// assigned is an assignment word: NAME=value, NAME+=value, NAME[...]=value.
type assigned struct {
	name  string
	value []item
}

// assignment reads w as an assignment word.
func assignment(w []item) (assigned, bool) {
	j := 0
	for j < len(w) && w[j].kind == itLit && isWordByte(w[j].c) {
		j++
	}
	if j == 0 || isDigit(w[0].c) {
		return assigned{}, false
	}
	name := make([]byte, j)
	for i := range name {
		name[i] = w[i].c
	}
	k := j
	if k < len(w) && w[k].kind == itGlob1 { // a subscript
		k++
	}
	if k < len(w) && w[k].kind == itLit && w[k].c == '+' {
		k++
	}
	if k >= len(w) || w[k].kind != itLit || w[k].c != '=' {
		return assigned{}, false
	}
	return assigned{name: string(name), value: w[k+1:]}, true
}

// parenAt returns the index of the first ( or ) item (c) of w, or -1.
func parenAt(w []item, c byte) int {
	for i, it := range w {
		if it.kind == itAny && it.c == c {
			return i
		}
	}
	return -1
}

// isOption reports whether word is a short option word (-xyz) holding the letter c.
func isOption(word string, c byte) bool {
	return len(word) > 1 && word[0] == '-' && strings.IndexByte(word[1:], c) >= 0
}

// lits returns the written bytes of w.
func lits(w []item) string {
	var b []byte
	for _, it := range w {
		if it.kind == itLit {
			b = append(b, it.c)
		}
	}
	return string(b)
}

// static reports whether w is written bytes only.
func static(w []item) bool {
	for _, it := range w {
		if it.kind != itLit {
			return false
		}
	}
	return true
}

// backslashEnd reports whether a backslash in raw ends it or stands before a quote: a
// value that may end in a backslash.
func backslashEnd(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && (i+1 == len(raw) || raw[i+1] == '"' || raw[i+1] == '\'') {
			return true
		}
	}
	return false
}

// hide marks the expansions of w as able to hold the whole name (an option word of shopt or
// set, a BASHOPTS value: it may name any option).
func hide(w []item) {
	for i := range w {
		switch w[i].kind {
		case itAny:
			w[i].hidden = true
		case itChoice:
			if len(w[i].alts) > 0 {
				hide(w[i].alts[0])
			}
		}
	}
}

// cmdState follows which command a word belongs to, enough to know an option word of shopt
// or set, printf's -v, an alias definition: a command starts at the line's start, after a
// newline, a ; & | ( or ), after a keyword or prefix (then, do, sudo, ...) or an assignment,
// and at a word that starts with a quote (a quoted string may be code for sh -c).
type cmdState struct {
	start, begun bool
	name         cmdName
}

// cmdName is a command a names clause tells apart.
type cmdName uint8

const (
	cmdOther  cmdName = iota
	cmdPrefix         // then, do, sudo, ...: the command's name comes next
	cmdShopt
	cmdSet
	cmdPrintf
	cmdRead // read, mapfile, readarray
	cmdDeclare
	cmdAlias
	cmdLoop // for, select
)

func nameOf(b []byte) cmdName {
	switch string(b) {
	case "then", "do", "else", "elif", "if", "while", "until", "!", "time", "command",
		"builtin", "exec", "sudo", "env", "nohup", "{":
		return cmdPrefix
	case "shopt":
		return cmdShopt
	case "set":
		return cmdSet
	case "printf":
		return cmdPrintf
	case "read", "mapfile", "readarray", "getopts":
		return cmdRead
	case "for", "select":
		return cmdLoop
	case "declare", "typeset", "local":
		return cmdDeclare
	case "alias":
		return cmdAlias
	}
	return cmdOther
}

// word returns the command wd belongs to and whether wd is its name.
func (c *cmdState) word(wd *word) (name cmdName, first bool) {
	var buf [16]byte
	head, n := cmdOther, 0 // the name before a separator; the bytes after the last one
	sep, long := false, false
	for _, it := range wd.items {
		switch {
		case it.kind == itLit && strings.IndexByte(";&|", it.c) >= 0, it.kind == itAny && it.c != 0:
			if !sep {
				head = nameOf(buf[:n])
				if long {
					head = cmdOther
				}
			}
			sep, n, long = true, 0, false
		case it.kind == itLit:
			if n < len(buf) {
				buf[n] = it.c
				n++
			} else {
				long = true
			}
		}
	}
	tail := nameOf(buf[:n])
	if long {
		tail = cmdOther
	}
	if !sep {
		head = tail
	}
	if !c.begun || c.start || wd.raw[0] == '\'' || wd.raw[0] == '"' {
		c.name, first = head, true
	}
	c.begun = true
	if sep {
		c.name, first = tail, n > 0
	}
	name = c.name
	c.start = wd.nl || sep && n == 0 || first && (name == cmdPrefix || isAssignment(wd.items))
	return name, first
}

// isAssignment reports whether w is an assignment word (see assignment).
func isAssignment(w []item) bool {
	j := 0
	for j < len(w) && w[j].kind == itLit && isWordByte(w[j].c) {
		j++
	}
	if j == 0 || isDigit(w[0].c) {
		return false
	}
	if j < len(w) && w[j].kind == itGlob1 {
		j++
	}
	if j < len(w) && w[j].kind == itLit && w[j].c == '+' {
		j++
	}
	return j < len(w) && w[j].kind == itLit && w[j].c == '='
}

// optionValue reports whether w assigns BASHOPTS or SHELLOPTS, whose value names options.
func optionValue(w []item) bool {
	if !isAssignment(w) {
		return false
	}
	v, _ := assignment(w)
	return v.name == "BASHOPTS" || v.name == "SHELLOPTS"
}
