package match

import "strings"

// extractDirs returns the directories the extractor prog (not tar, unzip, cpio, pax and
// dpkg-deb, which writeCheck.command reads itself) extracts into with args, and the files
// it writes by an option's name (unsquashfs -pf, atool --save-outdir): "." for the working
// directory; any is true when a member may land anywhere (an absolute path kept, a name
// rewritten, an option that hands the archiver options or configuration of its own). ok
// is false when prog with args extracts nothing. Source: red team round 55 (`jar xf X` of
// a jar holding .claude/settings.json; the other extractors of its kind), stop 32 (the
// ones after it: docs/decisions.md, "More extractors and copiers").
func extractDirs(prog string, args []string) (dirs []string, anyDir, ok bool) {
	switch prog {
	case "jar":
		return jarDirs(args)
	case "lha", "lhasa":
		return lhaDirs(args)
	case "arj", "unarj":
		return arjDirs(prog, args)
	case "star", "ustar":
		return starDirs(args)
	case "unsquashfs":
		return unsquashfsDirs(args)
	case "xorriso", "osirrox":
		return xorrisoDirs(prog, args)
	case "atool", "aunpack":
		return atoolDirs(prog, args)
	case "dtrx":
		p := parseArgs(args, "")
		if p.has("-l", "-t", "--list", "--table", "--list-extensions", "--help", "--version") {
			return nil, false, false
		}
		return []string{"."}, false, true // into the working directory: no option names another
	case "ouch":
		return ouchDirs(args)
	case "zstd", "unzstd":
		// --output-dir-flat DIR and --output-dir-mirror DIR: each output file into DIR.
		p := parseArgs(args, "oDTMpL", "--output-dir-flat", "--output-dir-mirror", "--filelist", "--memory",
			"--threads", "--format", "--patch-from", "--zstd", "--stream-size", "--size-hint", "--train-legacy")
		dirs = append(p.vals("--output-dir-flat"), p.vals("--output-dir-mirror")...)
		return dirs, false, len(dirs) > 0
	case "7z", "7za", "7zr", "7zz", "7zzs":
		cmd := ""
		for _, a := range args {
			switch {
			case a == "-spf" || a == "-spf2":
				anyDir = true // absolute paths kept
			case strings.HasPrefix(a, "-o") && len(a) > 2:
				dirs = append(dirs, a[2:])
			case !strings.HasPrefix(a, "-") && cmd == "":
				cmd = a
			}
		}
		if cmd != "x" && cmd != "e" {
			return nil, false, false
		}
		return orCwd(dirs), anyDir, true
	case "unar":
		p := parseArgs(args, "oeEpfLk", "-output-directory", "--output-directory", "-password", "-encoding")
		dirs = append(p.vals("-o"), p.vals("-output-directory")...)
		return orCwd(append(dirs, p.vals("--output-directory")...)), false, true
	case "unrar":
		var ops []string
		for _, a := range args {
			switch {
			case strings.HasPrefix(a, "-op") && len(a) > 3:
				dirs = append(dirs, a[3:])
			case strings.HasPrefix(a, "-"):
			default:
				ops = append(ops, a)
			}
		}
		if len(ops) == 0 || ops[0] != "x" && ops[0] != "e" {
			return nil, false, false
		}
		if len(ops) > 2 { // unrar x ARCHIVE [FILE...] [DIR/]: any of them may be the directory
			dirs = append(dirs, ops[2:]...)
		}
		return append(dirs, "."), false, true
	case "ar":
		if len(args) == 0 || !strings.Contains(strings.TrimPrefix(args[0], "-"), "x") {
			return nil, false, false
		}
		if strings.Contains(args[0], "P") {
			anyDir = true // P: the members' full path names
		}
		p := parseArgs(args[1:], "", "--output")
		return orCwd(p.vals("--output")), anyDir, true
	case "cabextract":
		p := parseArgs(args, "dFe", "--directory", "--filter", "--encoding")
		if p.has("-l", "--list", "-t", "--test", "-p", "--pipe") {
			return nil, false, false
		}
		return orCwd(append(p.vals("-d"), p.vals("--directory")...)), false, true
	case "gem":
		if len(args) == 0 || args[0] != "unpack" {
			return nil, false, false
		}
		p := parseArgs(args[1:], "v", "--target", "--version")
		return orCwd(p.vals("--target")), false, true
	}
	return nil, false, false
}

// jarDirs reads jar's arguments: old-style key letters (`jar xf X`, `jar -xvf X`) or long
// options (`--extract --file X`), and the directory of -C DIR or --dir DIR.
func jarDirs(args []string) (dirs []string, anyDir, ok bool) {
	extract := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--dir":
			if i+1 < len(args) {
				i++
				dirs = append(dirs, args[i])
			}
		case strings.HasPrefix(a, "--dir="):
			dirs = append(dirs, strings.TrimPrefix(a, "--dir="))
		case a == "--extract" || a == "-x" || strings.HasPrefix(a, "--ex") && strings.HasPrefix("--extract", a):
			extract = true
		case i == 0 && !strings.HasPrefix(a, "--") && strings.Contains(a, "x"):
			extract = true // the key letters: xf, -xvf
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "x"):
			extract = true
		}
	}
	if !extract {
		return nil, false, false
	}
	return orCwd(dirs), false, true
}

// orCwd returns dirs, or the working directory (".") when there are none.
func orCwd(dirs []string) []string {
	if len(dirs) == 0 {
		return []string{"."}
	}
	return dirs
}
