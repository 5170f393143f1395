package match

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/hookcore/hookcore/shell"
)

// errFindBound stops linkReader's walk of a find past maxFindEntries.
var errFindBound = errors.New("a find walks past the bound")

// findExecs returns the commands a find expression (args after the program) runs on what
// it finds: each -exec, -execdir, -ok and -okdir's words up to its ; or +.
func findExecs(args []string) [][]string {
	var out [][]string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			var cmd []string
			for i++; i < len(args) && args[i] != ";" && args[i] != `\;` && args[i] != "+"; i++ {
				cmd = append(cmd, args[i])
			}
			if len(cmd) > 0 {
				out = append(out, cmd)
			}
		}
	}
	return out
}

// findNoLinks reports whether a find expression (args after the program) acts on no
// symbolic link: a plain conjunction (no -o, comma, !, -not or parentheses) with a -type
// test whose types do not include l, and no -L or -follow (find then tests what a link
// names). `find ~/go -type f -exec chmod 000 {} +` need not be walked.
func findNoLinks(args []string) bool {
	typed := false
	for i, a := range args {
		switch a {
		case "-o", "-or", ",", "!", "-not", "(", ")", `\(`, `\)`, "-L", "-follow":
			return false
		case "-exec", "-execdir", "-ok", "-okdir":
			return typed // a test after the action does not bound what it acts on
		case "-type":
			if i+1 < len(args) && !strings.Contains(args[i+1], "l") {
				typed = true
			}
		}
	}
	return typed
}

// find reads the find words (the text t): each command it runs that follows a link is
// added with {} replaced by each entry that is a link, resolved.
func (r *linkReader) find(t string, words []string) {
	if findNoLinks(words[1:]) {
		return
	}
	for _, cmd := range findExecs(words[1:]) {
		if readsOnly(cmd) || lsFilesTarget(cmd) {
			continue
		}
		r.links = true
		r.mark(t, strings.Join(cmd, " "))
		r.walk(words, func(p string, d fs.DirEntry) {
			if d.Type()&fs.ModeSymlink == 0 {
				return
			}
			res := resolved(p)
			c := make([]string, len(cmd))
			for i, w := range cmd {
				c[i] = strings.ReplaceAll(w, "{}", res)
			}
			r.texts = append(r.texts, strings.Join(c, " "))
		})
	}
}

// fed reads xargs's (or parallel's) command f fed by find: when its items are split at
// blanks and quotes (xargs's default) or at newlines (-I, -d '\n', parallel), each entry
// whose path as find prints it holds such a byte gives its pieces as the command's
// operands (a directory `x .claude` holding `settings.json y.pyc` gives rm
// .claude/settings.json).
func (r *linkReader) fed(f shell.Fed) {
	if len(f.Command) == 0 || readsOnly(f.Command) || f.Delim == "\x00" {
		return
	}
	seps, _ := fedSeps(f)
	for _, p := range f.Producers {
		if len(p) > 0 && p[0] != "find" {
			r.listed(p, seps) // ls, echo or printf of a glob (fednames.go)
		}
		if len(p) == 0 || p[0] != "find" {
			continue
		}
		words := p
		if len(p) == 1 || strings.HasPrefix(p[1], "-") {
			words = append([]string{"find", "."}, p[1:]...)
		}
		r.split = true
		r.walk(words, func(printed string, d fs.DirEntry) {
			if !strings.ContainsAny(printed, seps) { // a directory's name splits too
				return
			}
			items := xargsItems(printed, seps)
			if f.Marker != "" && slicesHasMarker(f.Command, f.Marker) {
				for _, it := range items {
					c := make([]string, len(f.Command))
					for i, w := range f.Command {
						c[i] = strings.ReplaceAll(w, f.Marker, it)
					}
					r.texts = append(r.texts, strings.Join(c, " "))
				}
				return
			}
			r.texts = append(r.texts, strings.Join(append(append([]string{}, f.Command...), items...), " "))
		})
	}
}

// xargsItems splits the text s as xargs reads its input: at the bytes of seps, with
// quotes and the backslash (when they are among seps) joining what they hold. A piece
// with a blank left in it is split too: the checks read words.
func xargsItems(s, seps string) []string {
	if seps == "\n" {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			out = append(out, strings.Fields(l)...)
		}
		return out
	}
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case strings.IndexByte(" \t\n\v\f\r", c) >= 0:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	var words []string
	for _, o := range out {
		words = append(words, strings.Fields(o)...)
	}
	return words
}

// walk visits each entry the find words (find and its roots first) may act on, as find
// prints it, with its directory entry: every entry under a root whose name matches the
// -name and -iname tests of a plain conjunction (findNames; any entry otherwise), down to
// -maxdepth. Entries are read under each of the line's directories for a relative root.
// A root with an expansion, -L or -follow, a directory the line moves to that is not
// known, or more than maxFindEntries entries set hold.
func (r *linkReader) walk(words []string, visit func(printed string, d fs.DirEntry)) {
	args := words[1:]
	for len(args) > 0 && (args[0] == "-H" || args[0] == "-P" || strings.HasPrefix(args[0], "-O")) {
		args = args[1:] // find's options before its roots (-L, -D: below)
	}
	var roots []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	maxDepth := -1
	for i, a := range args {
		switch a {
		case "-L", "-follow", "-D":
			r.hold = true
			return
		case "-maxdepth":
			if i+1 < len(args) {
				if n, err := strconv.Atoi(args[i+1]); err == nil {
					maxDepth = n
				}
			}
		}
	}
	names, fold := findNames(args)
	n := 0
	for _, root := range roots {
		if strings.HasPrefix(root, "~/") || root == "~" {
			root = r.home + strings.TrimPrefix(root, "~")
		}
		if strings.ContainsAny(root, "$`~{") || !literalName(root) {
			r.hold = true
			return
		}
		var bases []string
		switch {
		case filepath.IsAbs(root):
			bases = []string{root}
		case r.moved:
			r.hold = true
			return
		default:
			for _, c := range r.cwds {
				bases = append(bases, filepath.Join(c, root))
			}
		}
		for _, base := range bases {
			err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil // no such root, or a directory find cannot read either
				}
				if n++; n > maxFindEntries {
					return errFindBound
				}
				rel, _ := filepath.Rel(base, p)
				if maxDepth >= 0 && rel != "." && strings.Count(rel, "/")+1 > maxDepth {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if len(names) == 0 || nameMatchesAll(d.Name(), names, fold) {
					printed := root
					if rel != "." {
						printed = strings.TrimSuffix(root, "/") + "/" + rel
					}
					visit(printed, d)
				}
				return nil
			})
			if err != nil {
				r.hold = true
				return
			}
		}
	}
}

// nonCreators are the commands that make no new name nor link (or whose own words the
// checks read: xargs and parallel run a unit of their own).
var nonCreators = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"rm": true, "rmdir": true, "unlink": true, "chmod": true, "chown": true, "chgrp": true,
		"sed": true, "cd": true, "pushd": true, "popd": true, "echo": true, "printf": true,
		"true": true, "false": true, "test": true, "[": true, "[[": true, "export": true,
		"unset": true, "set": true, "shopt": true, "exit": true, "sleep": true, "wait": true,
		"xargs": true, "parallel": true,
	}
})

// projectBuilders are the programs, and their subcommands, that build or test the
// project: they run the repository's own code (its tests, its Makefile, its scripts), which
// the policy already lets write any file (the self-protect example's header), so a link
// or a name they may make adds nothing that code could not do itself.
var projectBuilders = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"go":    {"build": true, "test": true, "vet": true, "fmt": true, "list": true, "run": true, "generate": true},
		"cargo": {"build": true, "test": true, "check": true, "clippy": true, "run": true, "fmt": true},
		"npm":   {"test": true, "run": true, "run-script": true, "t": true},
		"pnpm":  {"test": true, "run": true},
		"yarn":  {"test": true, "run": true},
		"make":  nil, "gmake": nil, "ninja": nil, "pytest": nil, "tox": nil,
	}
})

// buildsProject reports whether the command words build or test the project
// (projectBuilders): a program with no subcommand list, or one of its subcommands first.
func buildsProject(words []string) bool {
	subs, ok := projectBuilders()[words[0]]
	if !ok {
		return false
	}
	return subs == nil || len(words) > 1 && subs[words[1]]
}

// creates reports whether a unit of the line other than the forms read may create a link
// or, for a form that splits names, a name: any command that is none of the readers,
// nonCreators and projectBuilders, a find that writes a file (-fprint, -fls), touch or mkdir of a word with an
// expansion or, when a form splits names, a separator, a redirection of such a word. Its
// place on the line is not read (a loop runs a later command first).
func (r *linkReader) creates(units []string) bool {
	safeName := func(w string) bool {
		if strings.ContainsAny(w, "$`*?[{~") {
			return false
		}
		return !r.split || !strings.ContainsAny(w, xargsSeparators)
	}
	for _, u := range units {
		if r.alone(u) || wraps(u, units) || strings.Contains(u, "\x00") {
			continue
		}
		if tgt, ok := redirectTarget(u); ok {
			raw := strings.TrimSpace(u[strings.LastIndexAny(u, "<>&|")+1:]) // redirectTarget drops quotes
			if !safeName(tgt) || !safeName(raw) {
				return true
			}
			continue
		}
		words := shell.CommandWords(u)
		if len(words) == 0 {
			continue
		}
		words[0] = filepath.Base(words[0])
		if r.alone(strings.Join(words, " ")) || readsOnly(words) || nonCreators()[words[0]] || buildsProject(words) {
			continue
		}
		switch words[0] {
		case "find":
			for _, w := range words {
				if strings.HasPrefix(w, "-fprint") || w == "-fls" {
					return true
				}
			}
			continue
		case "touch", "mkdir":
			ok := true
			for _, w := range words[1:] {
				if !strings.HasPrefix(w, "-") && !safeName(w) {
					ok = false
				}
			}
			if ok {
				continue
			}
		}
		return true
	}
	return false
}
