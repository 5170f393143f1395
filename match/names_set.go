package match

import (
	"strings"
	"sync"
)

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
var setNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"FUNCNAME": true, "BASH_ARGV": true, "BASH_ARGV0": true, "BASH_SOURCE": true,
	}
})

// partNames are variables bash sets to a part of the line's text.
var partNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BASH_REMATCH": true, "OPTARG": true, "REPLY": true, "MAPFILE": true,
		"BASH_COMMAND": true, "BASH_EXECUTION_STRING": true, "PWD": true, "OLDPWD": true,
		"DIRSTACK": true, "BASH_ALIASES": true, "BASH_CMDS": true, "COMP_LINE": true,
		"COMP_WORDS": true, "READLINE_LINE": true,
	}
})

// setBy returns how bash may set the parameter name from the line's words: not at all, to
// whole words (whole), or to parts of them.
func (lf *lineFacts) setBy(name string) (set, whole bool) {
	switch {
	case name == "":
		return false, false
	case name == "@" || name == "*" || name == "_" || isDigit(name[0]) || setNames()[name]:
		return true, true
	case partNames()[name] || lf.reads[name]:
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
	// alts are what the expansion may give: one model of all the values in order when the
	// operator takes any part of them (ordered), else one model of each value and of each
	// part of it between separators (a ; & | or parenthesis), any of which bash may give,
	// whatever the order the line writes them in (red team round 7).
	alts    [][]item
	ordered bool
	built   bool
	busy    bool
	memo    map[int]stateSet
	// rest holds the states after a word break and any one value (restSet: computed).
	rest    stateSet
	restSet bool
	one     map[int]stateSet // oneOf by state, for joined
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

// model builds the alternatives of m from the values the line assigns to the parameter and
// the line's words. A trim takes any part of them all in order (lineFacts.modelOf joins
// them, by a word break when the line does not set IFS), which starts and ends in any of
// them; otherwise each value is an alternative on its own, so that expansions written one
// after the other ($2$1) may give the values in any order.
func (m *setModel) model() ([][]item, bool) {
	if m.built {
		return m.alts, m.alts != nil
	}
	m.built = true
	lf := m.lf
	values := append(append([][]item(nil), lf.vals[m.p.name]...), lf.pool...)
	trim, _, _ := opKind(m.p.op)
	if m.ordered = trim; trim {
		items, ok := lf.modelOf(m.p, values, true)
		if ok {
			m.alts = [][]item{items}
		}
		return m.alts, ok
	}
	for _, v := range values {
		for _, part := range parts(v) {
			items, ok := lf.modelOf(m.p, [][]item{part}, true)
			if !ok {
				m.alts = nil
				return nil, false
			}
			m.alts = append(m.alts, items)
		}
	}
	if m.alts == nil {
		m.alts = [][]item{} // no values: the expansion is empty
	}
	return m.alts, true
}

// parts returns v and, when v holds separators (; & | or a parenthesis, where bash ends a
// word: set -- nv .e; gives $2 .e, not .e;), each run of items between them.
func parts(v []item) [][]item {
	out := [][]item{v}
	from, cut := 0, false
	for i := 0; i <= len(v); i++ {
		if i < len(v) && !isSep(v[i]) && (v[i].kind != itAny || v[i].c == 0) {
			continue
		}
		if i < len(v) {
			cut = true
		}
		if cut && i > from {
			out = append(out, v[from:i])
		}
		from = i + 1
	}
	return out
}

// setStep returns the states the parameter's model leads to from state st (memoised). A
// model met again while it is being run (a parameter whose value holds its own expansion,
// set -- "${1}v") is any text there. Unless the model is ordered, the expansion may also
// be several values joined by word breaks (unquoted, or $@): after one value that ends the
// name comes a break (stAcc), and the last value starts at a path component (rest).
func (r *runner) setStep(m *setModel, st int) stateSet {
	if out, ok := m.memo[st]; ok {
		return out
	}
	if m.busy {
		return r.ns.anyText[st]
	}
	alts, ok := m.model()
	if !ok {
		return single(stAcc) // past the budget: fail closed
	}
	out := r.oneOf(m, alts, st)
	if ifs, split := m.lf.vals["IFS"]; split && !m.ordered {
		out = r.joined(m, alts, ifs, out)
	}
	if !m.ordered {
		if !m.restSet {
			m.restSet = true
			m.rest = r.oneOf(m, alts, stStart)
			m.rest.add(stStart)
		}
		out.union(&m.rest)
		if out.has(stEnd) || out.has(stTail) {
			out.add(stAcc)
		}
	}
	m.memo[st] = out
	return out
}

// joined returns the states reached from in by more values, in any order, each after a
// join bash may put between the words of $* or of a split value on a line that sets IFS:
// nothing, a word break or a first byte of an IFS value. Each state is run once (a
// fixed point), so the work stays the number of states times the model's size.
func (r *runner) joined(m *setModel, alts, ifs [][]item, in stateSet) stateSet {
	joins := [][]item{nil, {{kind: itBreak}}}
	for _, v := range ifs {
		joins = append(joins, v[:1])
	}
	if m.one == nil {
		m.one = map[int]stateSet{}
	}
	seen, frontier := in, in
	for !frontier.empty() {
		var next stateSet
		frontier.each(func(s int) {
			for _, j := range joins {
				after := r.run(j, single(s))
				after.each(func(t int) {
					o, ok := m.one[t]
					if !ok {
						o = r.oneOf(m, alts, t)
						m.one[t] = o
					}
					next.union(&o)
				})
			}
		})
		frontier = next.minus(&seen)
		seen.union(&next)
	}
	return seen
}

// oneOf returns the states any one of alts leads to from state st.
func (r *runner) oneOf(m *setModel, alts [][]item, st int) stateSet {
	m.busy = true
	var out stateSet
	for _, a := range alts {
		o := r.run(a, single(st))
		out.union(&o)
	}
	m.busy = false
	return out
}

// setTarget records the variables a word of read, mapfile, getopts (parts of the line's
// text) or for and select (whole words) may set: each word that is a name. Binding IFS so
// means the line sets IFS (lineFacts.vals).
func (lf *lineFacts) setTarget(w []item, name cmdName) {
	for j, it := range w { // the name ends at a ; & or | that ends the command (read IFS;)
		if isSep(it) {
			w = w[:j]
			break
		}
	}
	if !static(w) || len(w) == 0 || isDigit(w[0].c) {
		return
	}
	for _, it := range w {
		if !isWordByte(it.c) {
			return
		}
	}
	v := lits(w)
	if v == "IFS" {
		// IFS bound by for, select, read, getopts...: the line sets IFS, to any text.
		lf.assign(v, []item{{kind: itAny}})
	}
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
