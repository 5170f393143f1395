package match

import (
	"regexp"
	"strings"
)

// Allows reports whether the filter, used as an allow rule, permits the subject: it is
// AllowedBy(s, f). Match answers "may this call be one the filter names?" (a guard's
// question: when unsure, yes); Allows answers "is this call, all of it, one the filter
// names?" (a permission's question: when unsure, no). A nil *If permits nothing.
func (f *If) Allows(s *Subject) bool { return AllowedBy(s, f) }

// AllowedBy reports whether the allow rules, taken together, permit the call s (see "Allow
// rules" in the package doc). In short: arguments that are not valid JSON are permitted by
// no rule; a Bash call is permitted when its command can be analysed and every command it
// runs is matched by one of the Bash(...) rules (or a bare "Bash" rule permits every Bash
// call); a path rule (Read, Write, Edit, ...) permits a call when every path argument it
// has is a path the rule places inside the Subject's directory (NewSubjectIn), never by a
// trailing part alone; any other rule, regex or
// condition permits the call when it matches it. Nil rules
// are skipped. It is what the reference agent's --allow rules use (agent.Options.Allow),
// and what a hook's `if` must pass for the hook's "allow" to count.
func AllowedBy(s *Subject, rules ...*If) bool {
	if _, ok := s.decodedArgs(); !ok {
		return false
	}
	var bash []*regexp.Regexp
	for _, f := range rules {
		if f == nil {
			continue
		}
		if f.syntax == Condition {
			if f.cond.eval(s, true) {
				return true
			}
			continue
		}
		if f.syntax != Rule {
			if f.Match(s) {
				return true
			}
			continue
		}
		r := f.rule
		switch {
		case !strings.EqualFold(r.tool, s.tool):
		case r.kind == ruleBash:
			bash = append(bash, r.re)
		case r.kind == rulePath:
			if r.permitsPaths(s) {
				return true
			}
		case r.kind == ruleDomain:
			if r.permitsHosts(s) {
				return true
			}
		case r.match(s):
			return true
		}
	}
	if len(bash) == 0 {
		return false
	}
	b := s.bashCommands()
	return b != nil && b.Allows(bash)
}

// permitsForms reports whether r permits every spelling of v (pathForms) that is absolute:
// a path that reaches outside what the rule permits through an alias or symlink is not
// permitted, nor a file with more than one hard link (pathSet).
func (s *Subject) permitsForms(r *rule, v string) bool {
	ps := s.forms(v, s.dir)
	if ps.linked {
		return false
	}
	if s.dir == "" {
		return true // the written path alone: an absolute one is not permitted anyway
	}
	for _, f := range ps.forms {
		if !r.permitsPath(f, s.dir) {
			return false
		}
	}
	return true
}
