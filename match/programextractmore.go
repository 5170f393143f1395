package match

import (
	"strings"
	"sync"
)

// lhaDirs reads lha's (Lhasa's and LHa for UNIX's) first parameter: a command letter,
// optionally after "-" (x and e extract), then option letters, the last of which may be
// w=DIR, the directory extracted into (lhasa(1)).
func lhaDirs(args []string) (dirs []string, anyDir, ok bool) {
	if len(args) == 0 {
		return nil, false, false
	}
	key := strings.TrimPrefix(args[0], "-")
	if key == "" || key[0] != 'x' && key[0] != 'e' {
		return nil, false, false
	}
	if _, d, ok := strings.Cut(key, "w="); ok {
		return []string{d}, false, true
	}
	return []string{"."}, false, true
}

// arjDirs reads `arj COMMAND [-SWITCH...] ARCHIVE [BASE_DIR] [NAMES...]` (arj(1): e and x
// extract; -htDIR sets the target directory) and unarj's `unarj [COMMAND] ARCHIVE`, which
// extracts with no command, or with e or x. The operand after the archive is the base
// directory when it ends with "/"; else any operand after the archive may be one, and the
// working directory counts too.
func arjDirs(prog string, args []string) (dirs []string, anyDir, ok bool) {
	var ops []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-ht") && len(a) > 3:
			dirs = append(dirs, a[3:])
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	switch {
	case len(ops) == 0:
		return nil, false, false
	case strings.EqualFold(ops[0], "e") || strings.EqualFold(ops[0], "x"): // E and X too
		ops = ops[1:]
	case prog == "unarj" && len(ops[0]) > 1: // unarj ARCHIVE: extract
	default:
		return nil, false, false
	}
	if len(ops) > 1 && strings.HasSuffix(ops[1], "/") {
		return append(dirs, ops[1]), false, true // a base directory ends with a separator
	}
	if len(ops) > 1 {
		dirs = append(dirs, ops[1:]...)
	}
	return append(dirs, "."), false, true
}

// starLong are star's options of more than one letter that begin with x (star(1)), which
// do not ask for an extraction.
var starLong = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-xdir": true, "-xdot": true, "-xfflags": true, "-xmeta": true, "-xattr": true,
		"-xattr-linux": true, "-xz": true, "-xpax": true}
})

// starDirs reads star's (and ustar's) arguments (Schily star(1); cli=NAME, another
// program's syntax, may write anywhere): the command -x (in a bundle of letters,
// or tar's old-style first word), -copy (`star -copy ... DIR`: the last operand); the
// directory of -C DIR or C=DIR; -/ keeps absolute names, -.. names with "..", and -s
// rewrites names: a member may land anywhere.
func starDirs(args []string) (dirs []string, anyDir, ok bool) {
	extract, copying := false, false
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case i == 0 && strings.HasPrefix(a, "cli="):
			return []string{"."}, true, true // another program's syntax (tar, pax, cpio): not read
		case a == "-C" || a == "-f" || a == "-s" || a == "-V" || a == "-X" || a == "-list" || a == "-pat":
			if i+1 < len(args) {
				i++
				if a == "-C" {
					dirs = append(dirs, args[i])
				}
			}
			if a == "-s" {
				anyDir = true
			}
		case strings.HasPrefix(a, "-C="), strings.HasPrefix(a, "C="):
			dirs = append(dirs, a[strings.IndexByte(a, '=')+1:])
		case a == "-/" || a == "-.." || strings.HasPrefix(a, "-s="):
			anyDir = true
		case a == "-copy":
			copying = true
		case starLong()[a] || strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && strings.Contains(a, "x") && !strings.Contains(a, "="):
			extract = true
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		case i == 0 && strings.Contains(a, "x"):
			extract = true // tar's old-style key letters: star xf X
		default:
			ops = append(ops, a)
		}
	}
	switch {
	case copying:
		if len(ops) == 0 {
			return []string{"."}, anyDir, true
		}
		return ops[len(ops)-1:], anyDir, true
	case extract:
		return orCwd(dirs), anyDir, true
	}
	return nil, false, false
}

// unsquashfsDirs reads unsquashfs's options (unsquashfs(1), squashfs-tools 4.5): each one
// word after one dash; -d or -dest DIR, "squashfs-root" by default, is the directory
// extracted into; -pf or -pseudo-file FILE writes FILE; the listing and printing options
// extract nothing.
func unsquashfsDirs(args []string) (dirs []string, anyDir, ok bool) {
	var files []string
	for i := 0; i < len(args); i++ {
		switch a := strings.TrimPrefix(args[i], "-"); a {
		case "d", "dest", "pf", "pseudo-file":
			if i+1 < len(args) {
				i++
				if a == "pf" || a == "pseudo-file" {
					files = append(files, args[i])
				} else {
					dirs = append(dirs, args[i])
				}
			}
		case "max", "max-depth", "p", "processors", "o", "offset", "ef", "e", "extract-file", "exc", "excf",
			"exclude-file", "da", "data-queue", "fr", "frag-queue":
			i++
		case "l", "ls", "ll", "lls", "lln", "llnumeric", "lc", "llc", "s", "stat", "cat", "mkfs-time", "fstime",
			"h", "help", "v", "version":
			if len(files) == 0 {
				return nil, false, false
			}
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"squashfs-root"}
	}
	return append(dirs, files...), false, true
}

// atoolDirs reads atool's options (atool(1)): aunpack, or atool with -x, --extract, -X DIR
// or --extract-to=DIR, extracts into DIR or the working directory; --save-outdir=FILE
// writes FILE; -O (options handed to the archiver, -O-P for tar), -o KEY=VALUE and
// --config FILE (the programs it runs) are not read: a member may land anywhere.
func atoolDirs(prog string, args []string) (dirs []string, anyDir, ok bool) {
	p := parseArgs(args, "XFVoOe", "--extract-to", "--format", "--verbosity", "--option", "--format-option",
		"--config", "--save-outdir")
	dirs = append(p.vals("-X"), p.vals("--extract-to")...)
	if prog == "atool" && len(dirs) == 0 && !p.has("-x", "--extract") {
		return nil, false, false
	}
	anyDir = p.has("-O", "--format-option", "-o", "--option", "--config")
	return append(orCwd(dirs), p.vals("--save-outdir")...), anyDir, true
}

// ouchDirs reads ouch's subcommands (ouch --help, 0.5): decompress (d) extracts into -d
// DIR or --dir DIR, else the working directory; compress (c) writes its last operand.
func ouchDirs(args []string) (dirs []string, anyDir, ok bool) {
	p := parseArgs(args, "dfpcl", "--dir", "--format", "--password", "--threads", "--level")
	if len(p.ops) == 0 {
		return nil, false, false
	}
	switch p.ops[0] {
	case "decompress", "d":
		return orCwd(append(p.vals("-d"), p.vals("--dir")...)), false, true
	case "compress", "c":
		if len(p.ops) > 2 {
			return p.ops[len(p.ops)-1:], false, true
		}
	}
	return nil, false, false
}
