package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// IsShellReservedWord reports whether word is one of bash's reserved words ("(" too, which
// opens a subshell): a command starting with one is no program.
func IsShellReservedWord(word string) bool { return shellReservedWords()[word] }

// IsShellBuiltin reports whether name is one of bash's and dash's builtins: run by the shell,
// with no PATH lookup.
func IsShellBuiltin(name string) bool { return shellBuiltins()[name] }

// shellReservedWords are IsShellReservedWord's words, built on first use (no map is built at a
// hook process's start; decisions.md, "Package-level tables built on first use").
var shellReservedWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"!": true, "{": true, "}": true, "(": true, "[[": true, "]]": true, "case": true,
		"coproc": true, "do": true, "done": true, "elif": true, "else": true, "esac": true,
		"fi": true, "for": true, "function": true, "if": true, "in": true, "select": true,
		"then": true, "time": true, "until": true, "while": true,
	}
})

// shellBuiltins are IsShellBuiltin's names, built on first use.
var shellBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".": true, ":": true, "[": true, "alias": true, "bg": true, "bind": true, "break": true,
		"builtin": true, "caller": true, "cd": true, "command": true, "compgen": true,
		"complete": true, "compopt": true, "continue": true, "declare": true, "dirs": true,
		"disown": true, "echo": true, "enable": true, "eval": true, "exec": true, "exit": true,
		"export": true, "false": true, "fc": true, "fg": true, "getopts": true, "hash": true,
		"help": true, "history": true, "jobs": true, "kill": true, "let": true, "local": true,
		"logout": true, "mapfile": true, "popd": true, "printf": true, "pushd": true, "pwd": true,
		"read": true, "readarray": true, "readonly": true, "return": true, "set": true,
		"shift": true, "shopt": true, "source": true, "suspend": true, "test": true, "times": true,
		"trap": true, "true": true, "type": true, "typeset": true, "ulimit": true, "umask": true,
		"unalias": true, "unset": true, "wait": true,
	}
})

// wrapperArgOpts are the options of env and exec that take a separate argument.
var wrapperArgOpts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-u": true, "-C": true, "-S": true, "--unset": true, "--chdir": true, "--split-string": true, // env
		"-a": true, // exec
	}
})

// programOf returns the program a command action runs when it is a bare name the shell
// looks up in PATH, else "": args[0], or the first word of the command after VAR=value
// assignments and the env and exec wrappers with their options. Names with a '/' or a '$',
// glob characters, shell reserved words and builtins, and names that look like scripts
// (hook.py: see scriptOf) give "".
func programOf(a Action) string {
	var words []string
	if len(a.Args) > 0 {
		words = a.Args[:1]
	} else {
		words = shellWords(a.Command)
		wrapped := false // after env or exec: skip their options
	loop:
		for len(words) > 0 {
			w := words[0]
			switch {
			case isShellAssignment(w):
			case w == "env" || w == "exec":
				wrapped = true
			case wrapped && w == "--":
			case wrapped && len(w) > 1 && w[0] == '-':
				if wrapperArgOpts()[w] && len(words) > 1 {
					words = words[1:]
				}
			default:
				break loop
			}
			words = words[1:]
		}
	}
	if len(words) == 0 {
		return ""
	}
	p := words[0]
	if p == "" || IsShellReservedWord(p) || IsShellBuiltin(p) || strings.ContainsAny(p, "/$`*?[]{}~=\\") || strings.HasPrefix(p, "-") || looksLikePath(p) {
		return ""
	}
	return p
}

// isShellAssignment reports whether w has the shape NAME=value.
func isShellAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// lookPath reports whether prog is an executable file in one of the directories of path
// (a $PATH value; "" means the process's $PATH), as exec.LookPath finds it. Relative
// directories are taken from root, the project root the hook runs in.
func lookPath(prog, path, root string) bool {
	if path == "" {
		path = os.Getenv("PATH")
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		fi, err := os.Stat(filepath.Join(dir, prog))
		if err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}
