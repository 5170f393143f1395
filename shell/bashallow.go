package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Allows reports whether the line is permitted by the Bash rules res taken together (see
// "Allow rules" in the package doc): it is not Opaque, and each of its Units is matched by
// one of res. A line that runs nothing is permitted. It is a permission's question, answered
// no when unsure.
func (b *Commands) Allows(res []*regexp.Regexp) bool {
	if b.all {
		return false
	}
	for _, u := range b.units {
		ok := false
		for _, re := range res {
			if re.MatchString(u) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// assignText renders one assignment: NAME=value with the value rendered as a word (see
// renderWord), or its source text when it has an index or is an array.
func assignText(a *syntax.Assign, src string) string {
	switch {
	case a.Naked && a.Value != nil:
		return renderWord(a.Value, src).text
	case a.Naked && a.Name != nil:
		return a.Name.Value
	case a.Name == nil || a.Index != nil || a.Array != nil:
		return sourceOf(a, src)
	}
	op := "="
	if a.Append {
		op = "+="
	}
	v := ""
	if a.Value != nil {
		v = renderWord(a.Value, src).text
	}
	return a.Name.Value + op + v
}

// declText renders declare, local, export, readonly, typeset or nameref and its arguments.
func declText(d *syntax.DeclClause, src string) string {
	var sb strings.Builder
	if d.Variant != nil {
		sb.WriteString(d.Variant.Value)
	}
	for _, a := range d.Args {
		sb.WriteByte(' ')
		sb.WriteString(assignText(a, src))
	}
	return sb.String()
}

// sourceOf returns the source text of n in src.
func sourceOf(n syntax.Node, src string) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start >= 0 && start <= end && end <= len(src) {
		return src[start:end]
	}
	return ""
}

// writes reports whether a redirection opens a file for writing (anything but <, <<, <<-,
// <<< and <&): "> FILE" alone truncates FILE, "$(<FILE)" only reads it.
func writes(redirs []*syntax.Redirect) bool {
	for _, r := range redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
		default:
			return true
		}
	}
	return false
}

// writesFile reports whether r opens a file for writing: any redirection but the reading
// ones, a duplication of a descriptor (>&2, 2>&1) or /dev/null, /dev/stdout, /dev/stderr.
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
		return false
	}
	if r.Word != nil {
		w := renderWord(r.Word, "")
		if w.static {
			switch w.text {
			case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
				return false
			}
			if r.Op == syntax.DplOut && (w.text == "-" || isDigits(w.text)) {
				return false
			}
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
