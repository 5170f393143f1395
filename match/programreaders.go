package match

import (
	"path/filepath"
	"slices"
	"strings"
)

// readsOnly reports whether the simple command words (its leading assignments dropped)
// only reads the files it names: a program of readers, or one of the calls that read a
// file their way (red team round 56's false positives): jq and shellcheck, `bash -n`
// (syntax only), `python3 -m json.tool` with no output file, and git's diff, log, show,
// status, add, blame and ls-files with no -c (a pager or an external diff the line sets).
// Their -o and --output options are judged as writes all the same (outputOption).
func readsOnly(words []string) bool {
	if len(words) == 0 {
		return false
	}
	if readers()[words[0]] {
		return true
	}
	switch filepath.Base(words[0]) {
	case "jq", "shellcheck":
		return true
	case "bash", "sh", "dash", "zsh", "ksh":
		n := false
		for _, w := range words[1:] {
			switch {
			case w == "-n" || w == "--noexec":
				n = true
			case strings.HasPrefix(w, "-"):
				return false
			}
		}
		return n
	case "git":
		for _, w := range words[1:] {
			if w == "-c" || strings.HasPrefix(w, "--config-env") || strings.HasPrefix(w, "--exec-path") ||
				strings.Contains(w, "PAGER") || strings.Contains(w, "EXTERNAL") || w == "--ext-diff" {
				return false
			}
		}
		g, ok := parseGit(words, nil, false)
		return ok && slices.Contains([]string{"diff", "log", "show", "status", "add", "blame", "ls-files"}, g.sub)
	}
	if pythonName(filepath.Base(words[0])) && len(words) > 2 && words[1] == "-m" && words[2] == "json.tool" {
		ops := 0
		for i := 3; i < len(words); i++ {
			switch w := words[i]; {
			case w == "--indent":
				i++
			case strings.HasPrefix(w, "-"):
			default:
				ops++
			}
		}
		return ops <= 1 // json.tool IN OUT writes OUT
	}
	return false
}
