package match

import (
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
)

// fedInput is the operand word for an input word of xargs or parallel that the line does
// not spell: an expansion of unknown value, taken as a variable's value is (for a path
// clause, only on a line that names a protected path).
const fedInput = "$XARGS_INPUT"

// fedTexts returns, for each command the line runs under xargs or GNU parallel
// (shell.Fed), the commands it may run with the words of its input as operands (red team
// round 54: `echo ~/go | xargs rm -rf`, `grep -rl PreToolUse ~ | xargs sed -i …`, `echo ~
// | xargs -I% tar -xf evil.tar -C %`), for the checks to judge as the line's own commands:
//
//   - a find that feeds it is read as that find running the command (`find DIR … | xargs
//     CMD` as `find DIR … -exec CMD {} +`), so its -name tests spare what they spare;
//   - echo and printf give their words, ls its operands and the names in them (`*`, and
//     `.*` with -a or -A), grep -r/-l and rg each file operand and anything under it;
//   - a filter with no file operand (sort, uniq, head, tail, tr, cut, tee, cat, grep)
//     gives only what is fed to it, and any other producer, a file of -a or ::::, or no
//     pipe at all, a word of unknown value (fedInput);
//
// with -I (parallel's {}) each word replaces the marker in its own command; else all of
// them are appended. Parallel's ::: arguments are its words.
func fedTexts(b *shell.Commands) []string {
	var out []string
	for _, f := range b.Fed() {
		if len(f.Command) == 0 {
			continue
		}
		if texts, ok := lsFilesRunning(f); ok {
			out = append(out, texts...)
			continue
		}
		var words []string
		switch {
		case f.Args != nil:
			words = f.Args
		case f.Producers == nil:
			words = []string{fedInput}
		}
		for _, p := range f.Producers {
			if len(p) == 0 {
				continue
			}
			if p[0] == "find" {
				out = append(out, findRunning(p, f))
				continue
			}
			words = append(words, producedWords(p)...)
		}
		if len(words) == 0 {
			continue
		}
		if f.Marker != "" && slicesHasMarker(f.Command, f.Marker) {
			for _, w := range words {
				cmd := make([]string, len(f.Command))
				for i, c := range f.Command {
					cmd[i] = strings.ReplaceAll(c, f.Marker, w)
				}
				out = append(out, strings.Join(cmd, " "))
			}
			continue
		}
		out = append(out, strings.Join(append(append([]string{}, f.Command...), words...), " "))
	}
	return unwrapFed(out)
}

// unwrapFed returns texts with, after each that starts with a wrapper (`xargs -I% env -C %
// rm -rf go`), the texts package shell reads in it: the command it runs, the wrapper's own
// directory option kept for the cd checks (red team round 55).
func unwrapFed(texts []string) []string {
	n := len(texts)
	for _, t := range texts[:n] {
		head, _, _ := strings.Cut(t, " ")
		if !shell.IsWrapper(head) {
			continue
		}
		if b := shell.Parse(t); b != nil {
			for _, u := range b.Texts() {
				if u != t {
					texts = append(texts, u)
				}
			}
		}
	}
	return texts
}

// findRunning returns the find of the words p running the command of f on what it finds.
func findRunning(p []string, f shell.Fed) string {
	cmd := append([]string{}, p...)
	if len(cmd) == 1 || strings.HasPrefix(cmd[1], "-") {
		cmd = append([]string{"find", "."}, cmd[1:]...) // GNU find's default root
	}
	cmd = append(cmd, "-exec")
	if f.Marker != "" && slicesHasMarker(f.Command, f.Marker) {
		for _, c := range f.Command {
			cmd = append(cmd, strings.ReplaceAll(c, f.Marker, "{}"))
		}
		return strings.Join(append(cmd, ";"), " ")
	}
	return strings.Join(append(append(cmd, f.Command...), "{}", "+"), " ")
}

// fedFilters are the commands that, with no file operand, print only (parts of) what is
// fed to them.
var fedFilters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sort": true, "uniq": true, "head": true, "tail": true, "tr": true, "cut": true, "tee": true,
		"cat": true, "tac": true, "grep": true, "egrep": true, "fgrep": true, "rev": true, "nl": true,
	}
})

// producedWords returns the words the command p (a producer of xargs's input, not find)
// may print: see fedTexts.
func producedWords(p []string) []string {
	prog, args := p[0], p[1:]
	var ops []string
	var opts string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			opts += a
			continue
		}
		ops = append(ops, a)
	}
	if partsOfLines(prog, args) {
		return []string{fedInput}
	}
	switch prog {
	case "echo", "printf":
		if text, ok := printed(p); ok { // their output, evaluated (red team round 55)
			return printedWords(text)
		}
		return ops
	case "ls":
		names := []string{"*"}
		if strings.ContainsAny(strings.TrimPrefix(opts, "--"), "aA") {
			names = append(names, ".*")
		}
		out := append([]string{}, names...)
		for _, o := range ops {
			out = append(out, o)
			for _, n := range names {
				out = append(out, strings.TrimSuffix(o, "/")+"/"+n)
			}
		}
		return out
	case "grep", "egrep", "fgrep", "rg":
		recursive, patterned := prog == "rg", false
		for _, a := range args {
			switch {
			case a == "--recursive" || a == "--dereference-recursive" || a == "--files" || a == "-l" || a == "--files-with-matches":
				recursive = true
			case strings.HasPrefix(a, "--regexp") || strings.HasPrefix(a, "--file"):
				patterned = true
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				recursive = recursive || strings.ContainsAny(a, "rR")
				patterned = patterned || strings.ContainsAny(a, "ef")
			}
		}
		files := ops
		if len(files) > 0 && !patterned && !(prog == "rg" && strings.Contains(opts, "--files")) {
			files = files[1:] // the pattern
		}
		if len(files) == 0 {
			if !recursive {
				return nil // a filter of its input
			}
			files = []string{"."}
		}
		var out []string
		for _, f := range files {
			out = append(out, f, strings.TrimSuffix(f, "/")+"/"+fedInput)
		}
		return out
	}
	if fedFilters()[prog] && len(ops) == 0 || prog == "cat" && len(args) == 0 {
		return nil
	}
	return []string{fedInput}
}

// partsOfLines reports whether the filter prog with args prints parts of its input's lines
// other than their words, which may be a name no word fed to it is (`echo x:~/go/bin | cut
// -d: -f2`, `rev`, `grep -o`, `head -c`): its output is of unknown value (stop 32).
func partsOfLines(prog string, args []string) bool {
	switch prog {
	case "cut", "rev", "colrm", "fold", "column", "paste", "expand", "unexpand", "fmt":
		return true
	case "grep", "egrep", "fgrep", "rg":
		for _, a := range args {
			if a == "--only-matching" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "o") {
				return true
			}
		}
	case "head", "tail":
		for _, a := range args {
			if strings.HasPrefix(a, "--bytes") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
				return true
			}
		}
	}
	return false
}

// slicesHasMarker reports whether a word of words holds the marker m.
func slicesHasMarker(words []string, m string) bool {
	for _, w := range words {
		if strings.Contains(w, m) {
			return true
		}
	}
	return false
}
