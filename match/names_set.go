package match

import "strings"

// Values bash sets without an assignment (red team round 6): positional parameters ($1,
// set -- v, f v, bash -c '...' v), $_, BASH_REMATCH, OPTARG, FUNCNAME, the targets of read,
// mapfile, getopts, for and select, PWD after cd, and the like. bash takes each of them from
// the line's own words (or from a program reading them, as read < <(echo v) does), so an
// expansion of such a parameter is a choice between any text and a model of the line's
// words (lineFacts.pool): each of them or none, in the order written, joined by a word
// break (by nothing or an IFS byte too when the line sets IFS), or any part of that for a
// trim or for a parameter that holds part of a word (a capture, an option's argument, what
// read -n or read -d keeps). One model is built per parameter and operator, and its effect
// on each automaton state is computed once per line (setModel.memo), so a line with many
// such expansions costs its length times the states it reaches.

// setNames are variables bash sets to a whole word of the line.
var setNames = map[string]bool{
	"FUNCNAME": true, "BASH_ARGV": true, "BASH_ARGV0": true, "BASH_SOURCE": true,
}

// partNames are variables bash sets to a part of the line's text.
var partNames = map[string]bool{
	"BASH_REMATCH": true, "OPTARG": true, "REPLY": true, "MAPFILE": true,
	"BASH_COMMAND": true, "BASH_EXECUTION_STRING": true, "PWD": true, "OLDPWD": true,
	"DIRSTACK": true, "BASH_ALIASES": true, "BASH_CMDS": true, "COMP_LINE": true,
	"COMP_WORDS": true, "READLINE_LINE": true,
}

// setBy returns how bash may set the parameter name from the line's words: not at all, to
// whole words (whole), or to parts of them.
func (lf *lineFacts) setBy(name string) (set, whole bool) {
	switch {
	case name == "":
		return false, false
	case name == "@" || name == "*" || name == "_" || isDigit(name[0]) || setNames[name]:
		return true, true
	case partNames[name] || lf.reads[name]:
		return true, false
	case lf.loops[name]:
		return true, true
	}
	return false, false
}

// setModel is the model of a parameter bash sets, for one operator, built when first run.
type setModel struct {
	lf    *lineFacts
	p     param
	whole bool
	items []item
	built bool
	busy  bool
	memo  map[int]stateSet
}

// setParam returns the items of the model of the expansion p of a parameter bash sets.
func (lf *lineFacts) setParam(p param, whole bool) []item {
	if !whole && (p.op == "" || strings.IndexByte(":#%/", p.op[0]) < 0) {
		p.op = ":" // any part
	}
	key := p.name + "\x00" + p.op
	m := lf.sets[key]
	if m == nil {
		if lf.sets == nil {
			lf.sets = map[string]*setModel{}
		}
		m = &setModel{lf: lf, p: p, whole: whole, memo: map[int]stateSet{}}
		lf.sets[key] = m
	}
	return []item{{kind: itSet, set: m}}
}

// model builds the items of m: the line's words after the values the line assigns to the
// parameter, as lineFacts.model joins them, but by a word break when the line does not set
// IFS.
func (m *setModel) model() ([]item, bool) {
	if m.built {
		return m.items, m.items != nil
	}
	m.built = true
	lf := m.lf
	values := append(append([][]item(nil), lf.vals[m.p.name]...), lf.pool...)
	items, ok := lf.modelOf(m.p, values, true)
	if ok {
		m.items = items
	}
	return items, ok
}

// setStep returns the states the parameter's model leads to from state st (memoised). A
// model met again while it is being run (a parameter whose value holds its own expansion,
// set -- "${1}v") is any text there.
func (r *runner) setStep(m *setModel, st int) stateSet {
	if out, ok := m.memo[st]; ok {
		return out
	}
	if m.busy {
		return r.ns.anyText[st]
	}
	items, ok := m.model()
	if !ok {
		return single(stAcc) // past the budget: fail closed
	}
	m.busy = true
	out := r.run(items, single(st))
	m.busy = false
	m.memo[st] = out
	return out
}

// setTarget records the variables a word of read, mapfile, getopts (parts of the line's
// text) or for and select (whole words) may set: each word that is a name.
func (lf *lineFacts) setTarget(w []item, name cmdName) {
	if !static(w) || len(w) == 0 || isDigit(w[0].c) {
		return
	}
	for _, it := range w {
		if !isWordByte(it.c) {
			return
		}
	}
	v := lits(w)
	if name == cmdLoop {
		if lf.loops == nil {
			lf.loops = map[string]bool{}
		}
		lf.loops[v] = true
		return
	}
	if lf.reads == nil {
		lf.reads = map[string]bool{}
	}
	lf.reads[v] = true
}
