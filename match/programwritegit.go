package match

import (
	"path/filepath"
	"strings"
	"sync"
)

// gitReadOnly are git's subcommands that write no file of the work tree (the repository's
// own files aside): a git given another work tree than its project's and any other
// subcommand may write there (gitWorkTree).
var gitReadOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"status": true, "diff": true, "log": true, "show": true, "ls-files": true, "ls-tree": true,
		"rev-parse": true, "rev-list": true, "branch": true, "tag": true, "remote": true, "fetch": true,
		"describe": true, "blame": true, "grep": true, "shortlog": true, "cat-file": true, "add": true,
		"commit": true, "push": true, "config": true, "help": true, "version": true, "count-objects": true,
		"fsck": true, "gc": true, "reflog": true, "show-ref": true, "for-each-ref": true, "merge-base": true,
		"name-rev": true, "hash-object": true, "check-ignore": true, "check-attr": true, "var": true,
		"whatchanged": true, "verify-commit": true, "verify-tag": true, "archive": true, "bundle": true,
		"format-patch": true, "diff-tree": true, "diff-files": true, "diff-index": true, "update-index": true,
		"write-tree": true, "commit-tree": true, "update-ref": true, "symbolic-ref": true, "init": true,
	}
})

// gitCall is a git command line read for where it writes: its work tree (-C, --work-tree,
// GIT_WORK_TREE, checkout-index's --prefix) when one is given, its subcommand, and whether
// it copies a template directory into a new repository's .git (init or clone with
// --template, GIT_TEMPLATE_DIR or -c init.templateDir).
type gitCall struct {
	sub      string
	trees    []string // the work tree directories given, as operand words
	template bool
	separate bool // --separate-git-dir: the repository's .git moved there, or made there
}

// parseGit reads the words of a git command (words[0] is git); tree and template are the
// values the line assigns GIT_WORK_TREE and whether it names GIT_TEMPLATE_DIR.
func parseGit(words []string, tree []string, template bool) (gitCall, bool) {
	if len(words) == 0 || filepath.Base(words[0]) != "git" {
		return gitCall{}, false
	}
	g := gitCall{template: template}
	dir := "" // -C's directories, joined
	var wt []string
	i := 1
	for ; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "-C" && i+1 < len(words):
			i++
			dir = joinDir(dir, words[i])
		case a == "-c" && i+1 < len(words):
			i++
			if k, _, _ := strings.Cut(words[i], "="); strings.EqualFold(k, "init.templateDir") {
				g.template = true
			}
		case a == "--work-tree" && i+1 < len(words):
			i++
			wt = append(wt, words[i])
		case strings.HasPrefix(a, "--work-tree="):
			wt = append(wt, strings.TrimPrefix(a, "--work-tree="))
		case a == "--git-dir" || a == "--namespace" || a == "--config-env":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			g.sub = a
		}
		if g.sub != "" {
			break
		}
	}
	args := words[min(i+1, len(words)):]
	for _, a := range args {
		if a == "--template" || strings.HasPrefix(a, "--template=") {
			g.template = true
		}
		if name, _, _ := strings.Cut(a, "="); len(name) > 3 && longAbbrev(name, "--separate-git-dir") {
			g.separate = true
		}
		if p, ok := strings.CutPrefix(a, "--prefix="); ok && g.sub == "checkout-index" {
			wt = append(wt, p)
		}
	}
	if len(wt) == 0 {
		wt = tree
	}
	for _, t := range wt {
		if dir != "" && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") && !strings.HasPrefix(t, "$") {
			t = joinDir(dir, t) // a relative --work-tree is taken after -C
		}
		g.trees = append(g.trees, t)
	}
	if len(wt) == 0 && dir != "" {
		g.trees = append(g.trees, dir)
	}
	return g, true
}

// joinDir joins the directory word d to the one before it (-C a -C b is a/b; an absolute
// one replaces it).
func joinDir(before, d string) string {
	if before == "" || strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") || strings.HasPrefix(d, "$") {
		return d
	}
	return strings.TrimSuffix(before, "/") + "/" + d
}

// writesTree reports whether the git call may write files of its work tree.
func (g gitCall) writesTree() bool { return g.sub != "" && !gitReadOnly()[g.sub] }

// gitLine reads GIT_WORK_TREE's values and GIT_TEMPLATE_DIR on the Bash line cmd: the
// environment a git of the line may run with.
func gitLine(cmd string) (trees []string, template bool) {
	vals, other := lineValues(cmd, "GIT_WORK_TREE")
	if other {
		vals = append(vals, "$GIT_WORK_TREE")
	}
	return vals, strings.Contains(cmd, "GIT_TEMPLATE_DIR")
}

// hooksProtected reports whether one of the protected paths is a repository's .git, a path
// in its hooks directory or its config: what a template directory fills, and what `git
// init --separate-git-dir DIR` moves to DIR, where nothing protects it (red team round 55).
func hooksProtected(paths []string) bool {
	for _, p := range paths {
		if strings.HasSuffix(p, "/.git") || strings.Contains(p+"/", "/.git/hooks/") || strings.HasSuffix(p, "/.git/config") {
			return true
		}
	}
	return false
}

// scpLocal reports whether scp's arguments name only local files (no operand is HOST:PATH
// or a scp:// URI), and returns them parsed as cp's: such an scp copies as cp -r does.
func scpLocal(args []string) (parsed, bool) {
	p := parseArgs(args, "cDFiJlLoPSXB")
	for _, op := range p.ops {
		if strings.Contains(op, "://") {
			return p, false
		}
		if i := strings.IndexByte(op, ':'); i > 0 && !strings.Contains(op[:i], "/") {
			return p, false
		}
	}
	return p, len(p.ops) > 1
}

// debExtractDirs returns the directory dpkg-deb (-x, -X, -R, --extract, --vextract,
// --raw-extract) or dpkg (-x, -X, -R) extracts a package into: its second operand.
func debExtractDirs(prog string, args []string) ([]string, bool) {
	if prog != "dpkg-deb" && prog != "dpkg" {
		return nil, false
	}
	extract := false
	var ops []string
	for _, a := range args {
		switch {
		case a == "-x" || a == "-X" || a == "-R" || a == "--extract" || a == "--vextract" || a == "--raw-extract":
			extract = true
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if !extract {
		return nil, false
	}
	if len(ops) < 2 {
		return []string{fedInput}, true
	}
	return ops[1:2], true
}

// gitEnv is what a writeCheck knows of the line for git (gitLine), and how it tells the
// project's own work tree.
type gitEnv struct {
	trees    []string // GIT_WORK_TREE's values on the line
	template bool     // the line names GIT_TEMPLATE_DIR
	hooks    bool     // a protected path is a repository's .git or in its hooks
	cwds     []string // the directories the line's cds may lead to, when it has any
	own      func(dir string) bool
}

// git reports whether the git command words (words[0] is git) may write a protected path:
// a subcommand that writes files of the work tree, with a work tree given that may be a
// directory on the path to one and is not the project's own (red team round 54: `git
// --work-tree ~ checkout evil -- .`, `git -C ~ init && git -C ~ pull /path evil`,
// `checkout-index -a -f --prefix=$HOME/`); or git init or clone copying a template
// directory into a new .git when .git/hooks is protected (`git init --template=DIR`), or
// moving the repository's .git to another directory (`git init --separate-git-dir DIR`,
// which leaves a .git file naming it: red team round 55).
func (w *writeCheck) git(words []string) bool {
	g, ok := parseGit(words, w.gitEnv.trees, w.gitEnv.template)
	if !ok {
		return false
	}
	if (g.template || g.separate) && w.gitEnv.hooks && (g.sub == "init" || g.sub == "clone") {
		return true
	}
	if !g.writesTree() {
		return false
	}
	trees := g.trees
	if len(trees) == 0 {
		// The directories the line's cds lead to are git's work tree as -C's are (red team
		// round 56: `cd ~ && git init -q && git fetch -q /tmp/er && git checkout FETCH_HEAD -- .`).
		trees = w.gitEnv.cwds
	}
	for _, t := range trees {
		if w.may(t) && (w.gitEnv.own == nil || !w.gitEnv.own(t)) {
			return true
		}
	}
	return false
}
