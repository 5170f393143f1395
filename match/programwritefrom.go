package match

import "strings"

// fromInput answers, for the commands whose written files are named by their input rather
// than by their words (red team round 51), whether the simple command prog args may write
// over the program or a startup path; ok is false for any other command. patch writes the
// files its diff names, under the working directory or -d DIR (GNU patch refuses an
// absolute name or one with "..": `cd / && patch -p0 < p.diff` reaches anywhere), or the
// file operand it is given; git apply writes under the work tree, and anywhere with
// --unsafe-paths; xxd writes its second operand (-r its bytes, else a dump of the first:
// either breaks a program).
func (w *writeCheck) fromInput(prog string, args []string) (hit, ok bool) {
	switch prog {
	case "patch":
		p := parseArgs(args, "pdiBDFoVYzrg", "--strip", "--directory", "--input", "--prefix", "--ifdef",
			"--fuzz", "--output", "--version-control", "--basename-prefix", "--suffix", "--reject-file", "--get", "--quoting-style")
		if p.has("--dry-run", "-v", "--version", "--help") {
			return false, true
		}
		if len(p.ops) > 0 {
			return w.file(p.ops[0]) || w.dir(p.ops[0]), true
		}
		if p.has("-o", "--output") {
			return false, true // outputOption judged the one file it writes
		}
		return w.extractInto(append(p.vals("-d"), p.vals("--directory")...)), true
	case "git":
		i := 0
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			if args[i] == "-C" || args[i] == "-c" {
				i++
			}
			i++
		}
		if i >= len(args) || args[i] != "apply" {
			return false, false
		}
		p := parseArgs(args[i+1:], "p", "--directory", "--exclude", "--include", "--whitespace", "--build-fake-ancestor")
		if p.has("--check", "--stat", "--numstat", "--summary", "--cached") && !p.has("--apply", "--index") {
			return false, true
		}
		if p.has("--unsafe-paths") {
			return true, true
		}
		if hasChdir(args[:i]) {
			return true, true // git -C DIR: any work tree
		}
		return w.cwdIn(), true
	case "uudecode":
		// The begin line of the input names the file, any path (red team round 52); -o
		// names it instead.
		p := parseArgs(args, "o", "--output-file")
		if outs := append(p.vals("-o"), p.vals("--output-file")...); len(outs) > 0 {
			for _, o := range outs {
				if w.file(o) || w.may(o) {
					return true, true
				}
			}
			return false, true
		}
		return true, true
	case "xxd":
		p := parseArgs(args, "cglson", "-cols", "-groupsize", "-len", "-seek", "-name", "-offset")
		if len(p.ops) < 2 {
			return false, true
		}
		return w.file(p.ops[1]) || w.may(p.ops[1]), true
	}
	if strings.HasPrefix(prog, "python") {
		return w.pythonExtract(args)
	}
	return false, false
}

// pythonExtract is `python3 -m zipfile -e ARCHIVE DIR` and `python3 -m tarfile -e ARCHIVE
// [DIR]` (red team round 52: `python3 -m zipfile -e x.zip /`): an extraction into DIR (the
// working directory when none); tarfile's members may name any path (before Python 3.14's
// data filter, an absolute or ../ name is written as given), so tarfile writes anywhere.
func (w *writeCheck) pythonExtract(args []string) (hit, ok bool) {
	for i := 0; i+1 < len(args); i++ {
		if args[i] != "-m" {
			continue
		}
		mod, rest := args[i+1], args[i+2:]
		if mod != "zipfile" && mod != "tarfile" {
			return false, false
		}
		for j, a := range rest {
			if a != "-e" && a != "--extract" {
				continue
			}
			if mod == "tarfile" {
				return true, true
			}
			if j+2 < len(rest) {
				return w.extractInto(rest[j+2 : j+3]), true
			}
			return w.extractInto(nil), true
		}
		return false, true
	}
	return false, false
}

// hasChdir reports whether git's options before its subcommand hold -C DIR.
func hasChdir(opts []string) bool {
	for _, o := range opts {
		if o == "-C" {
			return true
		}
	}
	return false
}
