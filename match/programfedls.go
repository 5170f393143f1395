package match

import (
	"strings"

	"github.com/hookcore/hookcore/shell"
)

// lsFilesRunning returns, when xargs or parallel's input is `git ls-files` given only
// pathspecs of the form [DIR/]…*SUFFIX, the commands f runs read as a find running them
// on the files of those names (`git ls-files -z '*.go' | xargs -0 sed -i …` as `find .
// -iname '*.go' -exec sed -i … {} +`): whatever path git lists, its last name ends with
// SUFFIX, which no protected name may match (findSpares). ok is false, and xargs's input
// is of unknown value, unless every item is a whole path: NUL-terminated (-z with xargs
// -0) or one a line (xargs -I or -d '\n', parallel; git quotes a name with a newline),
// since xargs's default splits a tracked file named `x .claude/settings.json y.go` into
// three; the other producers of the pipe keep lines whole (sort, uniq, grep, head, tail,
// cat with no file operand: not tr, cut or grep -o); and the command run does not follow
// a symbolic link of that name to write its target (sed -i, rm, or a command that only
// reads): a tracked link `a.go` may point at any file. Source: a false positive of red
// team round 54's reading, stop 32 (`git ls-files '*.go' | xargs sed -i …`, which stays
// blocked: docs/decisions.md, "Self-protect false positives (stop 32)").
func lsFilesRunning(f shell.Fed) (texts []string, ok bool) {
	if f.Args != nil || len(f.Command) == 0 || !lsFilesTarget(f.Command) {
		return nil, false
	}
	var patterns []string
	seen := false
	for _, p := range f.Producers {
		if len(p) > 1 && p[0] == "git" && p[1] == "ls-files" {
			if seen {
				return nil, false
			}
			seen = true
			var z bool
			patterns, z, ok = lsFilesPatterns(p[2:])
			if !ok || z != (f.Delim == "\x00") || !z && f.Delim != "\n" {
				return nil, false
			}
			continue
		}
		if !keepsLines(p) {
			return nil, false
		}
	}
	if !seen {
		return nil, false
	}
	for _, pat := range patterns {
		texts = append(texts, findRunning([]string{"find", ".", "-iname", pat}, f))
	}
	return texts, true
}

// lsFilesPatterns reads git ls-files's arguments: the name patterns its pathspecs bound
// the listed files' last names to (`src/*_test.go`: *_test.go), and whether -z is given.
// ok is false for an option other than -z and the ones that choose which files are
// listed, a pathspec with magic (:), or one not bounded: no *, or a * followed by a glob
// character or a /, or by nothing.
func lsFilesPatterns(args []string) (patterns []string, z, ok bool) {
	opts := true
	for _, a := range args {
		if opts && strings.HasPrefix(a, "-") {
			switch a {
			case "--":
				opts = false
			case "-z":
				z = true
			case "-c", "--cached", "-o", "--others", "-m", "--modified", "-d", "--deleted",
				"--exclude-standard", "--full-name", "--error-unmatch":
			default:
				return nil, false, false
			}
			continue
		}
		i := strings.LastIndexByte(a, '*')
		suffix := a[i+1:]
		if i < 0 || suffix == "" || strings.HasPrefix(a, ":") || strings.ContainsAny(suffix, "*?[]{}\\/") || strings.ContainsAny(a, "$`") {
			return nil, false, false
		}
		patterns = append(patterns, "*"+suffix)
	}
	return patterns, z, len(patterns) > 0
}

// lsFilesTarget reports whether the command words (xargs's command) write no file through
// a symbolic link its operand names: sed -i (without --follow-symlinks) replaces the
// link, rm and unlink remove it; or they only read.
func lsFilesTarget(words []string) bool {
	switch words[0] {
	case "sed":
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "--follow") {
				return false
			}
		}
		return true
	case "rm", "unlink":
		return true
	}
	return readsOnly(words)
}

// keepsLines reports whether the command words, a producer of xargs's input after git
// ls-files, prints only whole lines of its input: sort and uniq -u/-d, grep selecting
// lines (no -o, no count, no file operand), head and tail by lines, cat and tac alone.
func keepsLines(words []string) bool {
	args := words[1:]
	switch words[0] {
	case "cat", "tac":
		return len(args) == 0
	case "sort":
		return lineOptions(args, "rufVnMhbdz", "")
	case "uniq":
		return lineOptions(args, "udiz", "")
	case "head", "tail":
		return lineOptions(args, "0123456789n", "n")
	case "grep", "egrep", "fgrep":
		pattern := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-e":
				i, pattern = i+1, true
			case strings.HasPrefix(a, "--"):
				return false
			case strings.HasPrefix(a, "-"):
				if strings.Trim(a[1:], "viEFwxP") != "" {
					return false
				}
			case !pattern:
				pattern = true
			default:
				return false // a file operand
			}
		}
		return true
	}
	return false
}

// lineOptions reports whether args are short options of the letters letters only (a
// number after one of valued), with no operand.
func lineOptions(args []string, letters, valued string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a[1] == '-' || strings.Trim(a[1:], letters) != "" {
			return false
		}
		if strings.ContainsAny(a[len(a)-1:], valued) && i+1 < len(args) {
			i++
			if strings.Trim(args[i], "0123456789+-") != "" {
				return false
			}
		}
	}
	return true
}
