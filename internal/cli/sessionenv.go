package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// What the tripwire follows from the session environment's files (red team round 66): the
// files the shell's startup files source, zsh's files under the ZDOTDIR they set, and the
// files git's global config includes. One level, bounded: the files followed are compared,
// not read for what they source or include in turn.
const (
	// envFollowMaxRead is how much of a startup file or git config is read for what it names.
	envFollowMaxRead = 64 << 10
	// envFollowMax is the number of paths followed; past it, the rest are not compared (the
	// file that names them still is: adding a line to it is a change).
	envFollowMax = 32
)

// zshDotFiles are the files zsh reads from $ZDOTDIR (home's when unset).
func zshDotFiles() []string {
	return []string{".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"}
}

// envFollowed returns the files the session environment's files name, in the order found,
// without those in or under have and without repeats, at most envFollowMax: the static path
// of each `source FILE` / `. FILE` of the shell startup files shells (at most the first
// envFollowMaxRead bytes of each), zsh's files under a ZDOTDIR one of them assigns (or the
// process's environment names; those files are read as startup files too), and the
// `path` of each [include] and [includeIf …] section of the git configs gits. A path that
// does not resolve statically (a variable other than HOME and XDG_CONFIG_HOME, a command
// substitution, a glob) is not followed. getenv reads XDG_CONFIG_HOME and ZDOTDIR.
func envFollowed(home string, shells, gits, have []string, getenv func(string) string) []string {
	var out []string
	add := func(p string) {
		if p == "" || len(out) >= envFollowMax {
			return
		}
		p = filepath.Clean(p)
		if slices.Contains(out, p) {
			return
		}
		for _, h := range have {
			if strings.HasPrefix(p, h) && (len(p) == len(h) || p[len(h)] == '/') {
				return // compared already (~/.bash_aliases, a file under ~/.bashrc.d)
			}
		}
		out = append(out, p)
	}
	var buf []byte
	queue := slices.Clip(shells)
	zdot := func(dir string) {
		for _, f := range zshDotFiles() {
			p := filepath.Join(dir, f)
			add(p)
			if !slices.Contains(queue, p) {
				queue = append(queue, p) // zsh reads them in place of home's: read as startup files
			}
		}
	}
	if z := getenv("ZDOTDIR"); filepath.IsAbs(z) && filepath.Clean(z) != home {
		zdot(z)
	}
	for i := 0; i < len(queue) && len(out) < envFollowMax; i++ {
		buf = readHead(queue[i], buf)
		scanShell(buf, home, getenv, func(src, zdotdir string) {
			if zdotdir != "" {
				if filepath.Clean(zdotdir) != home {
					zdot(zdotdir)
				}
				return
			}
			add(src)
		})
	}
	for _, g := range gits {
		if len(out) >= envFollowMax {
			break
		}
		buf = readHead(g, buf)
		scanGitIncludes(buf, home, filepath.Dir(g), add)
	}
	return out
}

// readHead reads at most envFollowMaxRead bytes of the regular file path into buf's
// storage; nothing when it is missing, not a regular file or unreadable.
func readHead(path string, buf []byte) []byte {
	buf = buf[:0]
	f, err := os.Open(path)
	if err != nil {
		return buf
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return buf
	}
	size := int(min(fi.Size(), envFollowMaxRead))
	if cap(buf) < size {
		buf = make([]byte, 0, max(size, 4<<10))
	}
	n, _ := io.ReadFull(f, buf[:size])
	return buf[:n]
}

// nextLine returns data's first line (without its newline) and the rest.
func nextLine(data []byte) (line, rest []byte) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return data, nil
	}
	return data[:i], data[i+1:]
}

// mayName reports whether a shell line may hold a `source`, a `.` command or a ZDOTDIR
// assignment: the others are not split into words (the cost of a long .bashrc).
func mayName(line []byte) bool {
	return bytes.Contains(line, []byte("source")) || bytes.Contains(line, []byte("ZDOTDIR")) ||
		bytes.Contains(line, []byte(". ")) || bytes.Contains(line, []byte(".\t"))
}

// scanShell calls found for each statically resolved path of a `source FILE` or `. FILE`
// command in the shell text data (found(path, "")), and for each assignment of ZDOTDIR,
// exported or not (found("", dir)). It reads one line at a time, with the line's commands
// split at ; && || | & and after then, do, else, { and !: `[ -f X ] && . X` and
// `if [ -r X ]; then . X; fi` on one line are read; a command spread over lines is not. A
// relative path is taken under home (a login shell starts there).
func scanShell(data []byte, home string, getenv func(string) string, found func(src, zdotdir string)) {
	var words []envWord
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		if !mayName(line) {
			continue
		}
		words = envWords(string(line), home, getenv, words[:0])
		start := true
		for i := 0; i < len(words); i++ {
			w := words[i]
			if w.op {
				start = true
				continue
			}
			if !start {
				continue
			}
			switch w.text {
			case "then", "do", "else", "{", "!", "export", "builtin", "command":
				continue // the next word starts the command (export's: the assignment)
			}
			start = false
			if dir, ok := strings.CutPrefix(w.text, "ZDOTDIR="); ok {
				if w.static && filepath.IsAbs(dir) {
					found("", dir)
				}
				continue
			}
			if (w.text == "." || w.text == "source") && i+1 < len(words) && !words[i+1].op {
				p := words[i+1]
				if !p.static || p.text == "" {
					continue
				}
				if !filepath.IsAbs(p.text) {
					if home == "" {
						continue
					}
					p.text = filepath.Join(home, p.text)
				}
				found(p.text, "")
			}
		}
	}
}

// envWord is a word of a shell line after quote removal and the expansion of ~, $HOME
// and $XDG_CONFIG_HOME; static is false when it holds another expansion or a glob. op is a
// command separator (; && || | &).
type envWord struct {
	text   string
	static bool
	op     bool
}

// envWords splits line into words, appended to out: quotes ('…', "…", \x) removed, a #
// that starts a word ends the line, ~ at a word's start or after NAME= expanded to home,
// $HOME, ${HOME}, $XDG_CONFIG_HOME, ${XDG_CONFIG_HOME} and ${XDG_CONFIG_HOME:-$HOME/.config}
// expanded (the last two to getenv's absolute value, else home's .config).
func envWords(line, home string, getenv func(string) string, out []envWord) []envWord {
	var b strings.Builder
	inWord, static := false, true
	end := func() {
		if inWord {
			out = append(out, envWord{text: b.String(), static: static})
		}
		b.Reset()
		inWord, static = false, true
	}
	xdg := func() string {
		if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
			return x
		}
		if home == "" {
			return ""
		}
		return home + "/.config"
	}
	// dollar expands the $ at line[i] into b and returns the index after it.
	dollar := func(i int) int {
		rest := line[i:]
		name, val := "", ""
		switch {
		case strings.HasPrefix(rest, "${XDG_CONFIG_HOME:-$HOME/.config}"):
			name, val = "${XDG_CONFIG_HOME:-$HOME/.config}", xdg()
		case strings.HasPrefix(rest, "${XDG_CONFIG_HOME:-${HOME}/.config}"):
			name, val = "${XDG_CONFIG_HOME:-${HOME}/.config}", xdg()
		case strings.HasPrefix(rest, "${XDG_CONFIG_HOME}"):
			name, val = "${XDG_CONFIG_HOME}", xdg()
		case strings.HasPrefix(rest, "${HOME}"):
			name, val = "${HOME}", home
		case strings.HasPrefix(rest, "$XDG_CONFIG_HOME") && !nameAt(rest, len("$XDG_CONFIG_HOME")):
			name, val = "$XDG_CONFIG_HOME", xdg()
		case strings.HasPrefix(rest, "$HOME") && !nameAt(rest, len("$HOME")):
			name, val = "$HOME", home
		default:
			static = false
			b.WriteByte('$')
			return i + 1
		}
		if val == "" {
			static = false
		}
		b.WriteString(val)
		return i + len(name)
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			end()
			i++
		case c == '#' && !inWord:
			end()
			return out
		case c == ';' || c == '&' || c == '|':
			end()
			for i < len(line) && (line[i] == ';' || line[i] == '&' || line[i] == '|') {
				i++
			}
			out = append(out, envWord{op: true})
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				static = false
				b.WriteString(line[i+1:])
				i = len(line)
				break
			}
			b.WriteString(line[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			inWord = true
			i++
			for i < len(line) && line[i] != '"' {
				switch line[i] {
				case '\\':
					if i+1 < len(line) {
						b.WriteByte(line[i+1])
					}
					i += 2
				case '$':
					i = dollar(i)
				case '`':
					static = false
					i++
				default:
					b.WriteByte(line[i])
					i++
				}
			}
			if i >= len(line) {
				static = false // unterminated: the word goes on past the line
			}
			i++
		case c == '\\':
			inWord = true
			if i+1 < len(line) {
				b.WriteByte(line[i+1])
			}
			i += 2
		case c == '$':
			inWord = true
			i = dollar(i)
		case c == '~' && (!inWord || isAssignPrefix(b.String())) && (i+1 == len(line) || line[i+1] == '/' || line[i+1] == ' ' || line[i+1] == '\t' || line[i+1] == ';'):
			inWord = true
			if home == "" {
				static = false
			}
			b.WriteString(home)
			i++
		default:
			inWord = true
			switch c {
			case '`', '*', '?', '[', '(', ')', '<', '>', '~':
				static = false
			}
			b.WriteByte(c)
			i++
		}
	}
	end()
	return out
}

// nameAt reports whether s[i] is a byte of a variable's name ($HOMEDIR is not $HOME).
func nameAt(s string, i int) bool {
	return i < len(s) && isNameByte(s[i])
}

// isNameByte reports whether c may be in a shell variable's name.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isAssignPrefix reports whether s is NAME= (an assignment's start: a ~ after it expands).
func isAssignPrefix(s string) bool {
	name, ok := strings.CutSuffix(s, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

// scanGitIncludes calls found for the path of each `path` key of an [include] or
// [includeIf "…"] section of the git config text data, resolved as git does: ~/ against
// home, a relative path against dir (the including file's directory). A value git would
// expand otherwise (~user/, %(prefix)/) or with a glob character is not followed.
func scanGitIncludes(data []byte, home, dir string, found func(string)) {
	in := false
	for len(data) > 0 {
		var raw []byte
		raw, data = nextLine(data)
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] == '#' || raw[0] == ';' || (raw[0] != '[' && !in) {
			continue
		}
		line := string(raw)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			head, rest, ok := strings.Cut(line[1:], "]")
			if !ok {
				in = false
				continue
			}
			name, _, _ := strings.Cut(strings.TrimSpace(head), " ")
			name, _, _ = strings.Cut(name, `"`)
			in = strings.EqualFold(name, "include") || strings.EqualFold(name, "includeIf")
			line = strings.TrimSpace(rest) // [include] path = x on one line
			if line == "" {
				continue
			}
		}
		if !in {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "path") {
			continue
		}
		p := gitValue(val)
		switch {
		case p == "" || strings.ContainsAny(p, "*?["):
			continue
		case strings.HasPrefix(p, "~/"):
			if home == "" {
				continue
			}
			p = filepath.Join(home, p[2:])
		case p[0] == '~' || strings.HasPrefix(p, "%("):
			continue
		case !filepath.IsAbs(p):
			p = filepath.Join(dir, p)
		}
		found(p)
	}
}

// gitValue returns a git config value as git reads it: spaces around it dropped, a # or ;
// outside quotes ending it, quotes removed and \" \\ \t \n unescaped.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	pending := 0 // spaces seen outside quotes, written only if more follows
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
			continue
		case !quoted && (c == '#' || c == ';'):
			return b.String()
		case !quoted && (c == ' ' || c == '\t' || c == '\r'):
			if b.Len() > 0 {
				pending++
			}
			continue
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			default:
				c = v[i]
			}
		}
		for ; pending > 0; pending-- {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
	}
	return b.String()
}
