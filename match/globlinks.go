package match

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/shell"
)

// The bounds of linkLines' reading of the file system, by counts: entries read for the
// globs of one line, entries walked for its finds, and texts added. Past one, a form that
// needs the reading holds (fail closed); the everyday forms read far less.
const (
	maxGlobEntries = 4096
	maxFindEntries = 20000
	maxLinkTexts   = 64
)

// xargsSeparators are the bytes that end or join an item of xargs's default input: blanks,
// newlines, quotes and the backslash.
const xargsSeparators = " \t\n\v\f\r'\"\\"

// linkLines returns, once per Subject, what a Bash line's globs and finds act on that its
// words do not show (stop 32): for a command that follows a symbolic link (not rm, unlink,
// sed -i without --follow-symlinks, nor a reader), each match of a glob operand or of a
// write redirection's glob, and each entry a find running it acts on, that is a link or
// under one, by its resolved target (`chmod 000 src/*.go` with src/evil.go a link to
// ~/.claude/settings.json is judged as `chmod 000 ~/.claude/settings.json`); for xargs (or
// parallel) fed by find with its items split at blanks and quotes (or, with -I and -d '\n',
// at newlines), the words each entry's name gives (`./x .claude/settings.json y.pyc` gives
// rm .claude/settings.json). The file system is read as it is when the hook runs. hold is
// set when such a form cannot be read: a glob or a find root with another expansion, a
// directory the line may move to that is not known, a bound passed, or another command of
// the line that may create a link or a name before the form runs (ln, cp, tar, git, an
// unknown program, touch or a redirection of a name with a separator).
func (s *Subject) linkLines(cmd string, b *shell.Commands) (texts []string, hold bool) {
	s.linkOnce.Do(func() { s.links, s.linksHold = s.readLinks(cmd, b) })
	return s.links, s.linksHold
}

// linkReader is one line's reading of the file system for linkLines.
type linkReader struct {
	home    string
	globs   bool     // the line may expand a glob (unquotedGlob, nestsScript)
	cwds    []string // the directories the line's relative words may be taken in
	moved   bool     // a cd leads to a directory not known
	entries int      // the entries read so far
	texts   []string
	hold    bool
	own     map[string]int    // the texts of the forms read, by form (1, 2, …)
	forms   int               // the forms read
	links   bool              // a form reads links: a creator of a link holds
	split   bool              // a form splits names: a creator of a name holds
	plain   map[string]bool   // expand's matches that are no link
	real    map[string]string // their directories, resolved
}

// readLinks is linkLines' reading of the line cmd, package shell's b.
func (s *Subject) readLinks(cmd string, b *shell.Commands) ([]string, bool) {
	r := &linkReader{home: s.homePath(), globs: unquotedGlob(cmd) || nestsScript(b.Units()), own: map[string]int{}, plain: map[string]bool{}, real: map[string]string{}}
	texts := s.loopTexts(b.Texts()) // a for loop's values (loops.go)
	own := len(texts)
	texts = append(texts[:own:own], s.loopTexts(fedTexts(b))...)
	r.dirs(s.cwd, texts, os.Getenv("CDPATH") != "" || cdpathMay(cmd, b.Units()))
	line := r.globs
	for k, t := range texts {
		r.globs = line || k >= own // a producer's names (ls's *) are globbed as a name is
		words := strings.Fields(t)
		if len(words) == 0 {
			continue
		}
		if words[0] == "find" {
			r.find(t, words)
			continue
		}
		if readsOnly(words) || lsFilesTarget(words) {
			continue
		}
		for i, w := range words[1:] {
			if (words[0] == "mv" || words[0] == "ln") && i+2 < len(words) && !strings.HasPrefix(words[i], "-t") {
				continue // a source is renamed or named, not followed: only the destination is
			}
			r.glob(t, words, i+1, w) // dd's of=GLOB is globbed whole, as bash does
		}
	}
	r.globs = line
	units := s.loopTexts(b.Units())
	for _, u := range units {
		if tgt, ok := redirectTarget(u); ok {
			r.glob(u, []string{">", tgt}, 1, tgt) // judged as a redirection to the target
		}
	}
	for _, f := range b.Fed() {
		r.fed(f)
	}
	r.loopForms(append(b.Texts(), b.Units()...), s.loopValues())
	if (r.links || r.split) && !r.hold {
		r.hold = r.creates(units)
	}
	if len(r.texts) > maxLinkTexts {
		r.hold = true
	}
	return r.texts, r.hold
}

// dirs sets the directories the line's relative words may be taken in: the call's cwd and
// each directory a cd of literal words leads to from one of them; a cd of another word, or
// with CDPATH searched, to one not known.
func (r *linkReader) dirs(cwd string, texts []string, cdpath bool) {
	if cwd == "" {
		r.moved = true
		return
	}
	r.cwds = []string{cwd}
	for _, t := range texts {
		words := strings.Fields(t)
		if len(words) == 0 || !dirChangers()[words[0]] && !shell.IsWrapper(words[0]) {
			continue
		}
		if shell.IsWrapper(words[0]) {
			if _, ok := shell.WrapperDir(words); ok {
				r.moved = true
			}
			continue
		}
		if len(words) != 2 || words[0] == "popd" {
			r.moved = true // cd alone or cd ~ (the home: its links are not the project's), popd
			continue
		}
		d := words[1]
		if strings.HasPrefix(d, "~/") {
			d = filepath.Join(r.home, d[2:])
		}
		if !literalName(d) || strings.ContainsAny(d, "$`~") || d == "-" || cdpath && !filepath.IsAbs(d) {
			r.moved = true
			continue
		}
		n := len(r.cwds)
		for _, c := range r.cwds[:n] {
			if filepath.IsAbs(d) {
				r.cwds = append(r.cwds, filepath.Clean(d))
			} else {
				r.cwds = append(r.cwds, filepath.Join(c, d))
			}
		}
		if len(r.cwds) > maxCwds {
			r.moved = true
		}
	}
}

// glob adds, for the word w of the command words (the text t) that follows a link, the
// command with words[i] replaced by w's matches, resolved, when one of them resolves to
// another path.
func (r *linkReader) glob(t string, words []string, i int, w string) {
	if !strings.ContainsAny(w, "*?[") || !r.globs {
		return
	}
	r.links = true
	r.mark(t)
	if strings.ContainsAny(w, "$`{") || strings.HasPrefix(w, "~") && !strings.HasPrefix(w, "~/") {
		r.hold = true
		return
	}
	var pats []string
	switch {
	case strings.HasPrefix(w, "~/"):
		pats = []string{filepath.Join(r.home, w[2:])}
	case filepath.IsAbs(w):
		pats = []string{filepath.Clean(w)}
	default:
		if r.moved {
			r.hold = true
			return
		}
		for _, c := range r.cwds {
			pats = append(pats, filepath.Join(c, w))
		}
	}
	for _, p := range pats {
		ms, ok := r.expand(p)
		if !ok {
			r.hold = true
			return
		}
		// The word becomes its matches, as bash expands it (a cp's last match is its
		// destination), each link by its target: one text for all of them.
		var out []string
		linked := false
		for _, m := range ms {
			res := r.resolved(m)
			linked = linked || res != m
			out = append(out, res)
		}
		if linked {
			r.add(words, i, strings.Join(out, " "))
		}
	}
}

// unquotedGlob reports whether the Bash line cmd has a glob character (*, ? or [) outside
// quotes and not after a backslash: package shell's texts drop the quotes of `find . -name
// '*.go'` and `python3 -c 'a[0]'`, and a line with none expands no glob. A line with one
// takes every word of its texts with a glob character for a glob: which word it is in is
// not known once the quotes are gone.
func unquotedGlob(cmd string) bool {
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '*' || c == '?' || c == '[':
			return true
		}
	}
	return false
}

// nestsScript reports whether a unit of units runs another (sh -c, eval, sudo, a shell's
// string): the quotes of the outer line are not those of the script it runs.
func nestsScript(units []string) bool {
	for _, u := range units {
		if wraps(u, units) {
			return true
		}
	}
	return false
}

// mark records the texts of one form read (a command and what runs it), once.
// A text that ends another (package shell's tails of an unknown program's words, the
// script of `sh -c`) is of the same form.
func (r *linkReader) mark(texts ...string) {
	if r.own[texts[0]] != 0 {
		return
	}
	id := 0
	for e, n := range r.own {
		if strings.HasSuffix(e, " "+texts[0]) || strings.HasSuffix(texts[0], " "+e) {
			id = n
		}
	}
	if id == 0 {
		r.forms++
		id = r.forms
	}
	for _, t := range texts {
		r.own[t] = id
	}
}

// alone reports whether the unit u is a text of the only form read: it runs after its
// glob is expanded (or its find acts), so what it creates is not under its own reading; a
// unit that is a form and may create what another form reads counts.
func (r *linkReader) alone(u string) bool { return r.own[u] != 0 && r.forms == 1 }

// add adds the command words with words[i] replaced by w.
func (r *linkReader) add(words []string, i int, w string) {
	c := append([]string{}, words...)
	c[i] = w
	r.texts = append(r.texts, strings.Join(c, " "))
}

// expand returns the matches of the clean absolute glob p, reading at most what is left of
// maxGlobEntries; ok is false past it or when a directory cannot be read for another
// reason than its absence. A leading dot is matched only by a pattern's dot, as the
// shell's default; a component that is no valid pattern (`x[`) matches itself, as bash
// leaves such a word as it is.
func (r *linkReader) expand(p string) (matches []string, ok bool) {
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := []string{"/"}
	for _, c := range comps {
		var next []string
		for _, d := range cur {
			if literalName(c) {
				next = append(next, filepath.Join(d, c))
				continue
			}
			f, err := os.Open(d)
			if err != nil {
				if os.IsNotExist(err) || isNotDir(err) {
					continue
				}
				return nil, false
			}
			ents, err := f.ReadDir(maxGlobEntries - r.entries + 1)
			f.Close()
			if r.entries += len(ents); r.entries > maxGlobEntries {
				return nil, false
			}
			if err != nil && len(ents) == 0 && !isNotDir(err) {
				continue // an empty directory
			}
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, ".") && !strings.HasPrefix(c, ".") {
					continue
				}
				if ok, err := path.Match(c, n); err != nil && c == n || ok {
					next = append(next, filepath.Join(d, n))
				}
			}
		}
		cur = next
	}
	for _, m := range cur {
		if fi, err := os.Lstat(m); err == nil {
			matches = append(matches, m)
			if fi.Mode()&os.ModeSymlink == 0 {
				r.plain[m] = true
			}
		}
	}
	return matches, true
}

// resolved is the package's resolved for a match of expand, with the directories of
// matches that are no link resolved once each.
func (r *linkReader) resolved(m string) string {
	if !r.plain[m] {
		return resolved(m)
	}
	d := filepath.Dir(m)
	rd, ok := r.real[d]
	if !ok {
		rd = resolved(d)
		r.real[d] = rd
	}
	return filepath.Join(rd, filepath.Base(m))
}

// isNotDir reports whether err is a directory read of something that is not one.
func isNotDir(err error) bool {
	return err != nil && strings.Contains(err.Error(), "not a directory")
}

// resolved returns the existing path p with its symbolic links resolved, a dangling link
// by the path it would create (a writer that follows it creates its target).
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	for range 40 {
		t, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return filepath.Clean(p)
}
