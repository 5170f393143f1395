package match

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/shell"
)

// listed reads, for xargs's (or parallel's) command f that does not only read and splits
// its items at the bytes of seps, what the producer p prints when it lists names from the
// file system: ls (the entries of each directory operand, "." when none, each operand's
// glob matches) and echo or printf of a glob. A name with a byte of seps is split by xargs
// into other names (a directory `x .claude` listed by `ls | xargs rm -rf` gives rm -rf
// .claude; stop 33): the form holds then, as an operand of unknown value holds; and so
// it does when the names cannot be read (an operand with another expansion, a cd to a
// directory not known, ls -R, a bound passed). find's names are read by fed; the other
// producers' output is a word of unknown value already (fedTexts).
func (r *linkReader) listed(p []string, seps string) {
	prog, args := p[0], p[1:]
	var ops []string
	entries := false // the entries of a directory operand are printed, not its name
	switch prog {
	case "ls":
		entries = true
		for _, a := range args {
			switch {
			case a == "--directory" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "d"):
				entries = false
			case a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R"):
				r.hold = true // the names of every directory below
				return
			case !strings.HasPrefix(a, "-") || a == "-":
				ops = append(ops, a)
			}
		}
		if len(ops) == 0 {
			ops = []string{"."}
		}
	case "echo", "printf":
		words := args
		if text, ok := printed(p); ok {
			words = printedWords(text)
		}
		for _, w := range words {
			if strings.ContainsAny(w, "*?[") {
				ops = append(ops, w)
			}
		}
	default:
		return
	}
	if len(ops) == 0 {
		return
	}
	r.split = true
	for _, o := range ops {
		if r.hold {
			return
		}
		r.listedNames(o, entries, seps)
	}
}

// listedNames reads the operand o of a producer for listed: each of its glob matches'
// names that a glob component chose, and with entries each name in a matched directory;
// one with a byte of seps holds.
func (r *linkReader) listedNames(o string, entries bool, seps string) {
	if strings.ContainsAny(o, "$`{") || strings.HasPrefix(o, "~") && !strings.HasPrefix(o, "~/") && o != "~" {
		r.hold = true
		return
	}
	var pats []string
	switch {
	case o == "~" || strings.HasPrefix(o, "~/"):
		pats = []string{filepath.Join(r.home, strings.TrimPrefix(o, "~"))}
	case filepath.IsAbs(o):
		pats = []string{filepath.Clean(o)}
	case r.moved:
		r.hold = true
		return
	default:
		for _, c := range r.cwds {
			pats = append(pats, filepath.Join(c, o))
		}
	}
	for _, p := range pats {
		ms, ok := r.expand(p)
		if !ok {
			r.hold = true
			return
		}
		pc := strings.Split(p, "/")
		for _, m := range ms {
			mc := strings.Split(m, "/")
			for i := range mc {
				if i < len(pc) && !literalName(pc[i]) && strings.ContainsAny(mc[i], seps) {
					r.hold = true
					return
				}
			}
			if !entries {
				continue
			}
			if fi, err := os.Stat(m); err != nil || !fi.IsDir() {
				continue
			}
			f, err := os.Open(m)
			if err != nil {
				r.hold = true
				return
			}
			ents, err := f.ReadDir(maxGlobEntries - r.entries + 1)
			f.Close()
			if r.entries += len(ents); r.entries > maxGlobEntries || err != nil && len(ents) > 0 {
				r.hold = true
				return
			}
			for _, e := range ents {
				if strings.ContainsAny(e.Name(), seps) {
					r.hold = true
					return
				}
			}
		}
	}
}

// fedSeps returns the bytes at which xargs's (or parallel's) command f splits its items:
// none (ok false) for NUL-separated items, which no name holds.
func fedSeps(f shell.Fed) (seps string, ok bool) {
	switch f.Delim {
	case "\x00":
		return "", false
	case "\n":
		return "\n", true
	}
	return xargsSeparators, true
}
