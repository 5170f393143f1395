package match

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/internal/shbound"
)

// maxShellDepth bounds the nesting of scripts parsed from `bash -c SCRIPT` and `eval ARGS`,
// and of find's -exec commands. Deeper nesting matches every rule.
const maxShellDepth = 4

// maxWalkDepth bounds the depth of the syntax tree walked. The parser builds a long
// pipeline, && list or arithmetic expression as a tree as deep as it is long, and the walk
// recurses; a deeper tree matches every rule.
const maxWalkDepth = 1000

// maxWrappers bounds the wrapper commands stripped from one simple command ("sudo nice env
// rm" strips 3); each adds a text, so "sudo sudo ... rm" would otherwise grow quadratically.
// More wrappers match every rule.
const maxWrappers = 16

// bashCommands is what a Bash permission rule sees of one command: each simple command
// rendered as text, or all when the command can not be analysed (it does not parse, or a
// command name is not static) and so matches every rule.
type bashCommands struct {
	all   bool
	texts []string
}

func (b *bashCommands) match(re *regexp.Regexp) bool {
	if b.all {
		return true
	}
	for _, t := range b.texts {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// bashCommands parses the `command` argument once, for Bash permission rules, and collects
// the texts its simple commands are matched as (see "Permission rules" in the package doc).
func (s *Subject) bashCommands() *bashCommands {
	s.bashOnce.Do(func() {
		if cmd, ok := s.arg("command"); ok {
			s.bash.collect(cmd, 0)
		}
	})
	return &s.bash
}

// collect parses script and adds its simple commands.
func (b *bashCommands) collect(script string, depth int) {
	if depth > maxShellDepth {
		b.all = true
		return
	}
	if shbound.Check(script) != nil { // too long or too deep to parse safely
		b.all = true
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		b.all = true
		return
	}
	level := 0 // depth in the tree of the node visited
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil { // the children of a node are done
			level--
			return true
		}
		if b.all {
			return false
		}
		if level >= maxWalkDepth {
			b.all = true
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			words := make([]word, len(c.Args))
			for i, w := range c.Args {
				words[i] = renderWord(w, script)
			}
			b.addCall(words, depth)
			if b.all {
				return false
			}
		}
		level++
		return true
	})
}

// word is one rendered shell word.
type word struct {
	text   string
	static bool // text is the word's value, not its source
}

// addCall adds the texts of one simple command (see bashCommands).
func (b *bashCommands) addCall(words []word, depth int) {
	for wrappers := 0; len(words) > 0; wrappers++ {
		if wrappers > maxWrappers {
			b.all = true
			return
		}
		name := words[0]
		if !name.static || (name.text != "[" && strings.ContainsAny(name.text, "*?[{")) {
			b.all = true
			return
		}
		b.texts = append(b.texts, joinWords(words, ""))
		base := path.Base(name.text)
		if base != name.text && name.text != "" {
			b.texts = append(b.texts, joinWords(words, base))
		}
		args := words[1:]
		if opts, ok := wrapperOptions(base); ok {
			words = skipWrapper(base, opts, args)
			continue
		}
		switch base {
		case "bash", "sh", "zsh", "dash", "ksh":
			b.shellC(args, depth)
		case "eval":
			for _, a := range args {
				if !a.static {
					b.all = true
					return
				}
			}
			b.collect(joinWords(args, ""), depth+1)
		case "find":
			b.findExec(args, depth)
		}
		return
	}
}

// shellC parses the script of `sh [options] -c SCRIPT`: the first operand after an option
// word holding 'c'.
func (b *bashCommands) shellC(args []word, depth int) {
	c := false
	for _, a := range args {
		if strings.HasPrefix(a.text, "-") && a.text != "-" && a.text != "--" {
			if !strings.HasPrefix(a.text, "--") && strings.Contains(a.text, "c") {
				c = true
			}
			continue
		}
		if !c {
			return
		}
		if !a.static {
			b.all = true
			return
		}
		b.collect(a.text, depth+1)
		return
	}
}

// findExec adds the commands of find's -exec, -execdir, -ok and -okdir actions, which run
// up to a ";" or "+" word, one nesting level deeper.
func (b *bashCommands) findExec(args []word, depth int) {
	for i := 0; i < len(args); i++ {
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		if depth+1 > maxShellDepth {
			b.all = true
			return
		}
		j := i + 1
		for j < len(args) && args[j].text != ";" && args[j].text != "+" {
			j++
		}
		if j > i+1 {
			b.addCall(args[i+1:j], depth+1)
			if b.all {
				return
			}
		}
		i = j
	}
}

// wrapperOptions reports whether name is a wrapper command, and which of its options take
// a separate argument.
func wrapperOptions(name string) ([]string, bool) {
	switch name {
	case "sudo":
		return []string{"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--command-timeout"}, true
	case "doas":
		return []string{"-u", "-C"}, true
	case "env":
		return []string{"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}, true
	case "time":
		return []string{"-f", "-o", "--format", "--output"}, true
	case "exec":
		return []string{"-a"}, true
	case "xargs":
		return []string{"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--max-lines", "--eof"}, true
	case "nice":
		return []string{"-n", "--adjustment"}, true
	case "timeout":
		return []string{"-s", "-k", "--signal", "--kill-after"}, true
	case "stdbuf":
		return []string{"-i", "-o", "-e", "--input", "--output", "--error"}, true
	case "nohup", "command", "builtin":
		return nil, true
	}
	return nil, false
}

// skipWrapper drops a wrapper's options (and their arguments) from args, plus env's
// NAME=value words and timeout's duration, and returns the wrapped command.
func skipWrapper(name string, argOpts []string, args []word) []word {
	i := 0
loop:
	for i < len(args) {
		w := args[i].text
		switch {
		case w == "--":
			i++
			break loop
		case name == "env" && isAssignment(w):
			i++
		case len(w) > 1 && w[0] == '-':
			i++
			for _, o := range argOpts {
				if w == o {
					i++
					break
				}
			}
		default:
			break loop
		}
	}
	if name == "timeout" && i < len(args) {
		i++
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}

// isAssignment reports whether w has the shape NAME=value.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		if !isIdentByte(w[i], i == 0) || w[i] == '-' {
			return false
		}
	}
	return true
}

// joinWords joins the words' texts with single spaces, the first replaced by name if set.
func joinWords(words []word, name string) string {
	var sb strings.Builder
	for i, w := range words {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if i == 0 && name != "" {
			sb.WriteString(name)
		} else {
			sb.WriteString(w.text)
		}
	}
	return sb.String()
}

// renderWord renders w from src: its value where static, else its source text.
func renderWord(w *syntax.Word, src string) word {
	var sb strings.Builder
	static := true
	source := func(n syntax.Node) {
		static = false
		start, end := int(n.Pos().Offset()), int(n.End().Offset())
		if start >= 0 && start <= end && end <= len(src) {
			sb.WriteString(src[start:end])
		}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(unescape(p.Value, func(byte) bool { return true }))
		case *syntax.SglQuoted:
			if p.Dollar {
				source(p)
				continue
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				source(p)
				continue
			}
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					sb.WriteString(unescape(l.Value, func(c byte) bool { return strings.IndexByte("$`\"\\\n", c) >= 0 }))
				} else {
					source(q)
				}
			}
		default:
			source(p)
		}
	}
	return word{text: sb.String(), static: static}
}

// unescape removes the backslash before each byte for which esc is true; a backslash before
// a newline removes both (line continuation).
func unescape(s string, esc func(byte) bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && esc(s[i+1]) {
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}
