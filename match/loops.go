package match

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/shell"
)

// maxLoopTexts bounds the texts one command's text becomes when its loop variables are
// written out; past it the text is kept as it is (its variables of unknown value: a
// writer's operand holds).
const maxLoopTexts = 256

// loopTexts returns texts (package shell's texts or units of the Bash line, or the ones
// fed to them) with each text that expands a for loop's variable of known values
// (shell.LoopValues) replaced by one text for each of its values: `for f in a
// ~/.claude/*.json; do cp x "$f"; done` is judged as `cp x a` and `cp x
// ~/.claude/*.json`, a glob read as a glob operand is (stop 33). A variable whose values
// are not known stays an expansion of unknown value.
func (s *Subject) loopTexts(texts []string) []string {
	vals := s.loopValues()
	if len(vals) == 0 {
		return texts
	}
	var out []string
	for _, t := range texts {
		out = append(out, expandLoops(t, vals)...)
	}
	return out
}

// maxLoopValues bounds the values of one loop variable with its globs' matches; past it
// the variable is left unknown.
const maxLoopValues = 256

// loopValues returns, once per Subject, the values of the Bash line's for loop variables:
// each word of the loop's list, and for a glob its matches as bash expands it when the
// loop starts, each its own value (the loop runs its body once per match: `cp x "$f"`
// over `src/*.go` writes every match, not the last one, as `cp x src/*.go` would). The
// pattern stays a value too, so that the glob readings see the form (a link or a name the
// line creates before the loop: linkLines). A relative pattern is expanded in each
// directory the line may run it in (the call's and each a cd of literal words leads to:
// linkReader.dirs), each match relative to its directory, as the checks take a relative
// word in each. A variable with a glob is left unknown when the matches cannot be read: a
// relative pattern on a line that may move to a directory not known or with no working
// directory known, a shopt or dotglob (which change what a glob matches), a bound passed.
func (s *Subject) loopValues() map[string][]string {
	s.loopOnce.Do(func() {
		cmd, ok := s.arg("command")
		if !ok || !strings.Contains(cmd, "for") && !strings.Contains(cmd, "select") {
			return
		}
		vals := shell.LoopValues(cmd)
		if len(vals) == 0 {
			return
		}
		// The directories a relative pattern may be expanded in: the call's and each a cd
		// of the line leads to (linkReader.dirs), their matches together.
		r := &linkReader{home: s.homePath(), plain: map[string]bool{}, real: map[string]string{}}
		if b := s.bashCommands(); b != nil && filepath.IsAbs(s.cwd) {
			r.dirs(s.cwd, b.Texts(), os.Getenv("CDPATH") != "" || cdpathMay(cmd, b.Units()))
		} else {
			r.moved = true
		}
		moved := r.moved || strings.Contains(cmd, "shopt") || mayDotglob(cmd)
	vars:
		for name, vs := range vals {
			var out []string
			for _, v := range vs {
				out = append(out, v)
				if !strings.ContainsAny(v, "*?[") {
					continue
				}
				var pats []string
				switch {
				case strings.HasPrefix(v, "~/"):
					pats = []string{filepath.Join(r.home, v[2:])}
				case filepath.IsAbs(v):
					pats = []string{filepath.Clean(v)}
				case strings.HasPrefix(v, "~") || moved:
					delete(vals, name)
					continue vars
				default:
					for _, c := range r.cwds {
						pats = append(pats, filepath.Join(c, v))
					}
				}
				for k, p := range pats {
					ms, ok := r.expand(p)
					if !ok || len(out)+len(ms) > maxLoopValues {
						delete(vals, name)
						continue vars
					}
					for _, m := range ms {
						if !filepath.IsAbs(v) && !strings.HasPrefix(v, "~") {
							m, _ = filepath.Rel(r.cwds[k], m) // as bash prints a relative pattern's match
						}
						out = append(out, m)
					}
				}
			}
			vals[name] = out
		}
		s.loops = vals
	})
	return s.loops
}

// expandLoops returns the texts t becomes with each $NAME and ${NAME} of vals written out,
// every combination of their values; t itself when it has none or past maxLoopTexts.
func expandLoops(t string, vals map[string][]string) []string {
	cur := []string{t}
	for name, vs := range vals {
		if replaceVar(strings.ReplaceAll(t, "${"+name+"}", ""), name, "") == t {
			continue // no expansion of it
		}
		if len(cur)*len(vs) > maxLoopTexts {
			return []string{t}
		}
		next := make([]string, 0, len(cur)*len(vs))
		for _, c := range cur {
			for _, v := range vs {
				next = append(next, replaceVar(strings.ReplaceAll(c, "${"+name+"}", v), name, v))
			}
		}
		cur = next
	}
	return cur
}

// loopForms makes the texts one text of originals becomes with its loop variables written
// out (expandLoops) one form of r's (mark): a loop's body runs after its list's globs are
// expanded, once per match, so what one run writes is not under the glob reading of
// another, as for a command given the glob itself (alone). Forms so joined count once.
func (r *linkReader) loopForms(originals []string, vals map[string][]string) {
	if len(vals) == 0 {
		return
	}
	for _, o := range originals {
		exps := expandLoops(o, vals)
		if len(exps) < 2 && (len(exps) == 0 || exps[0] == o) {
			continue
		}
		ids := map[int]bool{}
		id := 0
		for _, e := range exps {
			if n := r.own[e]; n != 0 {
				ids[n] = true
				if id == 0 || n < id {
					id = n
				}
			}
		}
		if id == 0 {
			continue
		}
		for t, n := range r.own {
			if ids[n] {
				r.own[t] = id
			}
		}
		for _, e := range append(exps, o) {
			r.own[e] = id
		}
		r.forms -= len(ids) - 1
	}
}
