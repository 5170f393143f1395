package shell

import "strings"

// longOption reports whether arg, a long option as written without its "=value" ("--pag"),
// names the long option known ("--pager"): equal to it, or a prefix of it with at least one
// byte after "--". GNU getopt_long, argp and git's parse-options accept any unambiguous
// prefix of a long option (red team 2: env --sp='rm -rf x', sort --compress-prog=bash, git
// grep --open=CMD, man --pag=CMD); an ambiguous prefix is refused by the tool, so reading
// it as the known option errs toward matching. Every table of long options in this
// package is compared through it, except bash's own (--rcfile), which bash compares whole.
func longOption(arg, known string) bool {
	return len(arg) > 2 && strings.HasPrefix(arg, "--") && strings.HasPrefix(known, arg)
}

// longName returns the option of known that arg (a long option as written, without
// "=value") names, by longOption: an exact match first, then the first option arg is a
// prefix of; arg itself when none.
func longName(arg string, known ...[]string) string {
	for _, list := range known {
		for _, k := range list {
			if arg == k {
				return k
			}
		}
	}
	for _, list := range known {
		for _, k := range list {
			if longOption(arg, k) {
				return k
			}
		}
	}
	return arg
}

// knownStart returns the literal text a word whose value is not known starts with: the
// pieces before its first hole (hole.go), or a glob's literal text before its first
// wildcard; "" when the word starts with an expansion or a wildcard.
func knownStart(w word) string {
	ps := w.pieces
	if w.exp != nil && w.exp.glob != nil {
		ps = w.exp.glob
	}
	var sb strings.Builder
	for _, p := range ps {
		if p.hole {
			break
		}
		sb.WriteString(p.text)
	}
	return sb.String()
}

// mayBeOption reports whether w, a word whose value is not known ($f, "$(...)", a glob),
// may be one of opts in the forms execOptions reads: a long option ("--pager") or an
// abbreviation of it, alone or with "=VALUE"; a short option ("-O") alone or inside a
// cluster (-iOCMD). Only the word's known start (knownStart) is compared, so the answer
// errs toward yes: "$f", "*" and "-$f" may be any option, "./$f", "x*" and "-k$n" (sort)
// may not (red team 4).
func mayBeOption(w word, opts []string) bool {
	p := knownStart(w)
	if p == "" || p == "-" {
		return true
	}
	if p[0] != '-' {
		return false
	}
	for _, o := range opts {
		if len(o) > 2 { // --name: its prefix, or an abbreviation of it with "=" after
			name, _, eq := strings.Cut(p, "=")
			if strings.HasPrefix(o, p) || eq && (name == o || longOption(name, o)) {
				return true
			}
			continue
		}
		if p[1] == '-' { // -x: a cluster of option letters holding x, or that may still
			continue
		}
		for j := 1; j < len(p) && isOptionLetter(p[j]); j++ {
			if p[j] == o[1] || j == len(p)-1 {
				return true
			}
		}
	}
	return false
}

// mayBeWord reports whether w, a word whose value is not known, may be one of names
// exactly (find's -exec, which takes no abbreviation and no "=VALUE"): its known start is
// a prefix of one.
func mayBeWord(w word, names []string) bool {
	p := knownStart(w)
	for _, n := range names {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}
