package match

// This file decides whether two globs can name the same path: a path rule's glob and a glob
// a tool call gives (Grep's `glob`, Glob's `pattern`, read_many_files' `include`). Both are
// compiled to automata over bytes and run together (their product), each pair of states
// visited once, so the work is bounded by the product of their sizes, never by how many
// paths either can name.

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (b *byteSet) add(c byte)            { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool       { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) meets(o *byteSet) bool { return b[0]&o[0]|b[1]&o[1]|b[2]&o[2]|b[3]&o[3] != 0 }
func (b *byteSet) invert()               { b[0], b[1], b[2], b[3] = ^b[0], ^b[1], ^b[2], ^b[3] }
func (b *byteSet) remove(c byte)         { b[c>>6] &^= 1 << (c & 63) }

func (b *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		b.add(byte(c))
	}
}

// anyByte is the set of what '**' crosses: any byte.
var anyByte = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}

// nameBytes is the set of '*' and '?': any byte of a path component, not '/'.
func nameBytes() byteSet {
	b := anyByte
	b.remove('/')
	return b
}

// gnode is a node of a glob automaton: a transition on a byte of set to out (when set is
// not empty), and transitions on no byte to each of eps. mark is, in a tool's glob, that the
// byte is written (a literal or a class, not a wildcard), and in a rule's glob that the byte
// is a literal of the pattern, part of a name it spells.
type gnode struct {
	set  byteSet
	out  int32
	eps  []int32
	mark bool
}

// globNFA is a glob compiled by Thompson's construction: start, and one accepting node.
type globNFA struct {
	nodes  []gnode
	start  int32
	accept int32
}

// globParser compiles glob text into a globNFA. Syntax, the common part of doublestar
// (Claude Code's rules and hookcore's), ripgrep's --glob and node-glob (Gemini CLI): '*'
// any text of a path component, '?' one character of one (a byte, or a UTF-8 sequence),
// '**' as a whole component any number of components ("a/**" and "a/**/" also match "a"),
// '[...]' and '[!...]' or '[^...]' a character of a class (a negated one also '/', as
// doublestar reads it; one with a non-ASCII member any character, one with a reversed range
// any byte), '{a,b}' either, '\x' the byte x, a trailing '/' optional; with extglob (a
// tool's glob, which node-glob reads) also '@(a|b)', '?(…)', '*(…)', '+(…)' and '!(…)' (any
// component text). Anything unmatched ('[' with no ']', '{' with no '}') is a literal. With
// fold, letters match either case (Gemini CLI's glob and read_many_files ignore case).
// Where the libraries differ it matches more, never less, than doublestar (FuzzGlobsMeet).
type globParser struct {
	nfa     globNFA
	fold    bool
	extglob bool
}

func (p *globParser) node() int32 {
	p.nfa.nodes = append(p.nfa.nodes, gnode{out: -1})
	return int32(len(p.nfa.nodes) - 1)
}

func (p *globParser) eps(from, to int32) {
	p.nfa.nodes[from].eps = append(p.nfa.nodes[from].eps, to)
}

// frag is a piece of automaton from in to out (out has no transitions yet).
type frag struct{ in, out int32 }

func (p *globParser) byteFrag(set byteSet, mark bool) frag {
	in, out := p.node(), p.node()
	n := &p.nfa.nodes[in]
	n.set, n.out, n.mark = set, out, mark
	return frag{in, out}
}

func (p *globParser) literal(c byte, mark bool) frag {
	var set byteSet
	set.add(c)
	if p.fold {
		foldSet(&set)
	}
	return p.byteFrag(set, mark && c != '/')
}

// foldSet adds the other case of each ASCII letter of set.
func foldSet(set *byteSet) {
	for c := 'A'; c <= 'Z'; c++ {
		u, l := byte(c), byte(c)+'a'-'A'
		if set.has(u) || set.has(l) {
			set.add(u)
			set.add(l)
		}
	}
}

func (p *globParser) empty() frag {
	n := p.node()
	return frag{n, n}
}

func (p *globParser) concat(a, b frag) frag {
	p.eps(a.out, b.in)
	return frag{a.in, b.out}
}

// star is zero or more of f; plus one or more; opt zero or one.
func (p *globParser) star(f frag) frag {
	in, out := p.node(), p.node()
	p.eps(in, f.in)
	p.eps(in, out)
	p.eps(f.out, f.in)
	p.eps(f.out, out)
	return frag{in, out}
}

func (p *globParser) plus(f frag) frag {
	out := p.node()
	p.eps(f.out, f.in)
	p.eps(f.out, out)
	return frag{f.in, out}
}

func (p *globParser) opt(f frag) frag {
	in, out := p.node(), p.node()
	p.eps(in, f.in)
	p.eps(in, out)
	p.eps(f.out, out)
	return frag{in, out}
}

func (p *globParser) alt(fs []frag) frag {
	in, out := p.node(), p.node()
	for _, f := range fs {
		p.eps(in, f.in)
		p.eps(f.out, out)
	}
	return frag{in, out}
}

// text appends the literal text s, each byte marked mark.
func (p *globParser) text(f frag, s string, mark bool) frag {
	for i := 0; i < len(s); i++ {
		f = p.concat(f, p.literal(s[i], mark))
	}
	return f
}

// seq compiles the glob text g[i:] up to one of the stop bytes (at depth 0) or its end,
// and returns the piece and where it stopped. compStart is whether g[i] starts a path
// component.
func (p *globParser) seq(g string, i int, stop string, compStart bool) (frag, int) {
	f := p.empty()
	for i < len(g) {
		c := g[i]
		if stop != "" && indexByte(stop, c) {
			return f, i
		}
		switch {
		case c == '\\' && i+1 < len(g):
			f = p.concat(f, p.literal(g[i+1], true))
			i += 2
			compStart = g[i-1] == '/'
			continue
		case p.extglob && i+1 < len(g) && g[i+1] == '(' && indexByte("@!+*?", c):
			if end := closing(g, i+1, '(', ')'); end > 0 {
				f = p.concat(f, p.extGroup(c, g[i+2:end]))
				i, compStart = end+1, false
				continue
			}
		case c == '/' && stop == "" && i == len(g)-1:
			// A trailing '/' names a directory: the path may be written without it.
			f = p.concat(f, p.opt(p.literal('/', true)))
			return f, len(g)
		case c == '/' && stop == "" && (g[i:] == "/**" || g[i:] == "/**/"):
			// "a/**" matches a and all below it: ("/" any*)?
			nb := p.concat(p.literal('/', true), p.star(p.byteFrag(anyByte, false)))
			f = p.concat(f, p.opt(nb))
			return f, len(g)
		case c == '*' && i+1 < len(g) && g[i+1] == '*' && compStart && (i+2 == len(g) || g[i+2] == '/' || stop != "" && indexByte(stop, g[i+2])):
			if i+2 < len(g) && g[i+2] == '/' && !(stop == "" && i+3 == len(g)) {
				// "**/": any number of components, (any* "/")?
				d := p.concat(p.star(p.byteFrag(anyByte, false)), p.literal('/', false))
				f = p.concat(f, p.opt(d))
				i += 3
				continue
			}
			f = p.concat(f, p.star(p.byteFrag(anyByte, false)))
			i += 2
			if stop == "" && i == len(g)-1 {
				i++ // "**/" at the end is "**"
			}
			compStart = false
			continue
		case c == '*':
			for i < len(g) && g[i] == '*' {
				i++
			}
			f = p.concat(f, p.star(p.byteFrag(nameBytes(), false)))
			compStart = false
			continue
		case c == '?':
			f = p.concat(f, p.anyRune(nameBytes(), false))
			i++
			compStart = false
			continue
		case c == '[':
			if set, neg, end := parseClass(g, i); end > 0 {
				if p.fold {
					foldSet(&set)
				}
				var cl frag
				switch {
				case neg:
					cl = p.anyRune(set, false) // one rune not listed
				case !asciiOnly(&set):
					cl = p.anyRune(set, true) // a listed rune: any, read as written
				default:
					cl = p.byteFrag(set, true)
				}
				f = p.concat(f, cl)
				i, compStart = end, false
				continue
			}
		case c == '{':
			if end := closing(g, i, '{', '}'); end > 0 {
				var alts []frag
				j := i + 1
				for {
					a, k := p.seq(g[:end], j, ",", compStart)
					alts = append(alts, a)
					if k >= end {
						break
					}
					j = k + 1
				}
				f = p.concat(f, p.alt(alts))
				i, compStart = end+1, false
				continue
			}
		}
		f = p.concat(f, p.literal(c, true))
		compStart = c == '/'
		i++
	}
	return f, i
}

// anyRune is one character as doublestar and node-glob read '?': a byte of ascii (the
// ASCII and stray bytes it allows), or a lead byte and its continuation bytes (a UTF-8
// sequence, whatever it encodes: more than one rune is never less safe).
func (p *globParser) anyRune(ascii byteSet, mark bool) frag {
	var one, lead, cont byteSet
	for c := 0; c < 0xC0; c++ {
		if ascii.has(byte(c)) || c >= 0x80 {
			one.add(byte(c))
		}
	}
	lead.addRange(0xC0, 0xFF)
	cont.addRange(0x80, 0xBF)
	seq := p.concat(p.byteFrag(lead, mark), p.plus(p.byteFrag(cont, mark)))
	return p.alt([]frag{p.byteFrag(one, mark), seq})
}

// asciiOnly reports whether set holds no byte above 0x7F.
func asciiOnly(set *byteSet) bool { return set[2]|set[3] == 0 }

// extGroup compiles the body of an extglob group kind(body).
func (p *globParser) extGroup(kind byte, body string) frag {
	if kind == '!' {
		return p.star(p.byteFrag(nameBytes(), false)) // not these: any component text
	}
	var alts []frag
	for j := 0; ; {
		a, k := p.seq(body, j, "|", false)
		alts = append(alts, a)
		if k >= len(body) {
			break
		}
		j = k + 1
	}
	f := p.alt(alts)
	switch kind {
	case '?':
		return p.opt(f)
	case '*':
		return p.star(f)
	case '+':
		return p.plus(f)
	}
	return f
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// closing returns the index of the close byte that matches the open byte at g[i] (nested
// pairs and backslash escapes skipped), or -1.
func closing(g string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(g); j++ {
		switch g[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// parseClass parses the class that starts at g[i] ('['), returning its bytes,
// whether it was negated and the index after its ']', or end 0 when it has no ']'. A class
// with a reversed range ("[x-0]"), which the glob libraries read each their own way, is any
// byte, not negated.
func parseClass(g string, i int) (set byteSet, neg bool, end int) {
	odd := false
	j := i + 1
	if j < len(g) && (g[j] == '!' || g[j] == '^') {
		neg = true
		j++
	}
	first := true
	for j < len(g) {
		c := g[j]
		if c == ']' && !first {
			if odd {
				return anyByte, false, j + 1
			}
			if neg {
				set.invert() // '/' included: doublestar's [!0] matches it
			}
			return set, neg, j + 1
		}
		first = false
		if c == '\\' && j+1 < len(g) {
			j++
			c = g[j]
		}
		if j+2 < len(g) && g[j+1] == '-' && g[j+2] != ']' {
			hi := g[j+2]
			if hi == '\\' && j+3 < len(g) {
				hi = g[j+3]
				j++
			}
			if c > hi {
				odd = true // a reversed range: read differently by each library
			}
			set.addRange(min(c, hi), max(c, hi))
			j += 3
			continue
		}
		set.add(c)
		j++
	}
	return byteSet{}, false, 0
}

// compileGlob compiles a literal prefix (each byte marked prefixMark) followed by the glob
// g; extglob is for a tool's glob, which node-glob reads (a rule is doublestar's).
func compileGlob(prefix string, prefixMark bool, g string, fold, extglob bool) *globNFA {
	p := &globParser{fold: fold, extglob: extglob}
	f := p.text(p.empty(), prefix, prefixMark)
	compStart := prefix == "" || prefix[len(prefix)-1] == '/'
	body, _ := p.seq(g, 0, "", compStart)
	f = p.concat(f, body)
	p.nfa.start, p.nfa.accept = f.in, f.out
	return &p.nfa
}

// after returns the automaton of the literal prefix (unmarked: an anchor such as the project
// root, not a name the glob spells) followed by n, sharing nothing with n.
func (n *globNFA) after(prefix string) *globNFA {
	if prefix == "" {
		return n
	}
	base := int32(len(prefix)) + 1
	out := &globNFA{nodes: make([]gnode, base, int(base)+len(n.nodes)), start: 0, accept: n.accept + base}
	for i := 0; i < len(prefix); i++ {
		out.nodes[i].set.add(prefix[i])
		out.nodes[i].out = int32(i) + 1
	}
	out.nodes[len(prefix)] = gnode{out: -1, eps: []int32{n.start + base}}
	for _, g := range n.nodes {
		if g.out >= 0 {
			g.out += base
		}
		if len(g.eps) > 0 {
			eps := make([]int32, len(g.eps))
			for j, e := range g.eps {
				eps[j] = e + base
			}
			g.eps = eps
		}
		out.nodes = append(out.nodes, g)
	}
	return out
}

// maxGlobStates bounds the states (pairs of nodes, times three) globsMeet visits; past it
// the answer is not known.
const maxGlobStates = 1 << 22

// globsMeet reports whether some path is matched by both the rule's automaton and the
// tool's. With written, the path must also take, in each run of literal bytes of the rule
// (a name or part of one it spells, between wildcards and '/'), at least one byte the tool's
// glob writes (a literal or a class): "*" and "**/*" do not name .env for the rule
// "**/.env", ".e*", ".en?" and "*.env" do. ok is false when the automata are too large to
// run together (maxGlobStates): the caller fails closed.
func globsMeet(rule, tool *globNFA, written bool) (meet, ok bool) {
	nr, nt := len(rule.nodes), len(tool.nodes)
	if nr == 0 || nt == 0 || nr*nt > maxGlobStates/3 {
		return false, false
	}
	seen := make([]uint64, (nr*nt*3+63)/64)
	type state struct {
		r, t int32
		f    uint8 // 0: outside a run of the rule's literals, 1: in one, none written yet, 2: in one, written
	}
	visit := func(st state) bool {
		k := (int(st.r)*nt+int(st.t))*3 + int(st.f)
		if seen[k>>6]&(1<<(k&63)) != 0 {
			return false
		}
		seen[k>>6] |= 1 << (k & 63)
		return true
	}
	queue := []state{{rule.start, tool.start, 0}}
	visit(queue[0])
	for len(queue) > 0 {
		st := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if st.r == rule.accept && st.t == tool.accept && st.f != 1 {
			return true, true
		}
		rn, tn := &rule.nodes[st.r], &tool.nodes[st.t]
		for _, e := range rn.eps {
			if n := (state{e, st.t, st.f}); visit(n) {
				queue = append(queue, n)
			}
		}
		for _, e := range tn.eps {
			if n := (state{st.r, e, st.f}); visit(n) {
				queue = append(queue, n)
			}
		}
		if rn.out < 0 || tn.out < 0 || !rn.set.meets(&tn.set) {
			continue
		}
		f := uint8(0)
		switch {
		case !written:
		case rn.mark && (tn.mark || st.f == 2):
			f = 2
		case rn.mark:
			f = 1
		case st.f == 1:
			continue // a run of the rule's literals ended with none of it written
		}
		if n := (state{rn.out, tn.out, f}); visit(n) {
			queue = append(queue, n)
		}
	}
	return false, true
}
