package match

import (
	"os"
	"path/filepath"
	"strings"
)

// maxLinkGlob bounds the files a glob is expanded to when the program has a hard link of
// another name: a glob that matches more may name it.
const maxLinkGlob = 4096

// linkedGlob reports whether the word w with expansions may name a hard link of the
// program: a glob is expanded in each of the line's directories; a word with another
// expansion (a brace group of alternatives, {} where a find or xargs of the line replaces
// it), or taken anywhere, may be any file. A brace group without a comma or .. is text
// (`print({})`, `{print`: red team round 57's false positives as root, whose /bin/sh has a
// hard link in ~/.debug).
func (l *lineScope) linkedGlob(w string) bool {
	if strings.ContainsAny(w, "$`") || braceAlternatives(w) || l.placeholder && strings.Contains(w, "{}") || !filepath.IsAbs(w) && l.anywhere {
		return true
	}
	pats := []string{w}
	if !filepath.IsAbs(w) {
		pats = nil
		for _, c := range l.cwdForms() {
			pats = append(pats, filepath.Join(c, w))
		}
	}
	for _, p := range pats {
		m, err := filepath.Glob(p)
		if err != nil || len(m) > maxLinkGlob {
			return true
		}
		for _, f := range m {
			if l.sameAsProgram(f) {
				return true
			}
		}
	}
	return false
}

// sameAsProgram reports whether the existing file p is the same file as the program.
func (l *lineScope) sameAsProgram(p string) bool { return sameFileAs(p, l.links) }

// sameFileAs reports whether the existing file p is the same file as one of infos.
func sameFileAs(p string, infos []os.FileInfo) bool {
	if len(infos) == 0 {
		return false
	}
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	for _, pi := range infos {
		if os.SameFile(fi, pi) {
			return true
		}
	}
	return false
}

// programLinks returns the file information of the program's paths when one of them has a
// hard link that is none of them (red team round 50: `cp -l ~/go/bin/*k /tmp/zz`, then a
// write to /tmp/zz replaced the program's contents): a write or change of any name of that
// file then counts. Nil in the ordinary case, one name per program path.
func programLinks(files []string) []os.FileInfo {
	type stat struct {
		path string
		fi   os.FileInfo
	}
	var stats []stat
	linked := false
	for _, p := range files {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		stats = append(stats, stat{p, fi})
		linked = linked || linkCount(fi) > 1
	}
	if !linked {
		return nil // the usual case: a stat per path
	}
	linked = false
	var infos []os.FileInfo
	for _, st := range stats {
		names := map[string]bool{}
		for _, o := range stats {
			if os.SameFile(o.fi, st.fi) {
				p := o.path
				if r, err := filepath.EvalSymlinks(p); err == nil {
					p = r
				}
				names[p] = true
			}
		}
		linked = linked || linkCount(st.fi) > uint64(len(names))
		infos = append(infos, st.fi)
	}
	if !linked {
		return nil
	}
	return infos
}

// mayUnder reports whether the word w may name a path under one of dirs (not one of them):
// a literal word's cleaned and resolved spellings, a pattern's text up to its first
// expansion or glob, which may go on into one of them.
func (l *lineScope) mayUnder(w string, dirs []string) bool {
	w = l.tilde(w)
	var cands []string
	if i := strings.IndexAny(w, "$`*?[{"); i >= 0 {
		prefix := w[:i]
		if !filepath.IsAbs(prefix) {
			return true
		}
		for _, d := range dirs {
			if strings.HasPrefix(prefix, d+"/") || strings.HasPrefix(d+"/", prefix) {
				return true
			}
		}
		return false
	}
	if filepath.IsAbs(w) {
		cands = append(cands, filepath.Clean(w))
	} else {
		for _, c := range l.cwdForms() {
			cands = append(cands, filepath.Join(c, w))
		}
	}
	for _, c := range cands {
		if r, err := filepath.EvalSymlinks(c); err == nil {
			cands = append(cands, r)
		}
	}
	for _, c := range cands {
		for _, d := range dirs {
			if strings.HasPrefix(c, strings.TrimSuffix(d, "/")+"/") {
				return true
			}
		}
	}
	return false
}

// placeholderLine reports whether the Bash line cmd may run a command whose words have {}
// replaced by a file's name: find with -exec, -execdir, -ok or -okdir, xargs or parallel.
func placeholderLine(cmd string) bool {
	for _, n := range []string{"-exec", "-ok", "xargs", "parallel"} {
		if strings.Contains(cmd, n) {
			return true
		}
	}
	return false
}
