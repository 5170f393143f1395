package shell

import (
	"strings"
	"sync"
)

// Some programs build the command they run with a template language of their own, whose
// tokens stand for text the line chooses elsewhere (red team 5, findings 7 and 8: ssh -o
// 'ProxyCommand=%hm -rf x' r ran rm with the host name r; LESSOPEN='|%sm -rf x' less r
// with the file name r). For deny rules, such a template is analysed with each token
// replaced by an unquoted '*', a glob: a run of file-name bytes that is not known, so a
// token where a command name may be makes the line match (the holes of hole.go), and
// `ssh -W %h:%p bastion` does not. A token inside quotes or after a backslash, or a template
// language this reading does not cover (LESSEDIT's ?x…. conditionals), makes the line
// match every deny rule: the substituted text could close the quote.
//
//   - ssh, scp, sftp, autossh: every argument with a '%' (-o ProxyCommand=…, LocalCommand,
//     KnownHostsCommand, RemoteCommand, a config line given to -o), read as an operand
//     (operandCode). ssh refuses shell metacharacters in host and user names given on the
//     command line (OpenSSH 9.6, backported to Debian's 9.2p1), so a token is one word.
//   - less: LESSOPEN and LESSCLOSE (%s, the file name, which less quotes), LESSEDIT (%f,
//     %g, %l, … and ?x…. conditionals), assigned on the line (envValue).

// sshPrograms are the programs that expand ssh's % tokens in options whose value is a
// command.
var sshPrograms = sync.OnceValue(func() map[string]bool {
	return setOf("ssh", "scp", "sftp", "autossh", "slogin")
})

// percentGlobs returns s with each unquoted %X token (X any byte but '%') replaced by "*"
// and each "%%" by "%", and false when a token is inside quotes or after a backslash.
func percentGlobs(s string) (string, bool) {
	var sb strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && quote != '\'':
			if i+1 < len(s) && s[i+1] == '%' {
				return "", false
			}
			sb.WriteByte(ch)
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i])
			}
			continue
		case quote == 0 && (ch == '\'' || ch == '"'):
			quote = ch
		case ch == quote:
			quote = 0
		case ch == '%' && i+1 < len(s) && s[i+1] == '%':
			sb.WriteByte('%')
			i++
			continue
		case ch == '%' && i+1 < len(s):
			if quote != 0 {
				return "", false
			}
			sb.WriteByte('*')
			i++
			continue
		}
		sb.WriteByte(ch)
	}
	return sb.String(), true
}

// percentCode analyses, for deny rules, each of args that holds a '%' as an operand of a
// program that expands % tokens in it (see the top of this file).
func (b *Commands) percentCode(args []word, c ctx) {
	for _, a := range args {
		if b.all {
			return
		}
		if !strings.Contains(a.text, "%") {
			continue
		}
		t, ok := percentGlobs(a.text)
		if !ok {
			b.all = true
			return
		}
		b.operandCode(word{text: t, static: a.static}, c)
	}
}

// lessTemplate analyses, for deny rules, the value v of less's variable name (LESSOPEN,
// LESSCLOSE, LESSEDIT) with its % tokens as globs (see the top of this file).
func (b *Commands) lessTemplate(name string, v word, c ctx) {
	switch name {
	case "LESSOPEN", "LESSCLOSE", "LESSEDIT":
	default:
		return
	}
	if name == "LESSEDIT" && strings.ContainsAny(v.text, "?\\") {
		b.denyAll = true // ?x…. conditionals remove text: r?xq.m is rm
		return
	}
	text := v.text
	if name == "LESSOPEN" { // |CMD, ||CMD, then - (the command also reads standard input)
		text = strings.TrimPrefix(strings.TrimPrefix(text, "|"), "|")
		text = strings.TrimPrefix(text, "-")
	}
	if !strings.Contains(text, "%") && text == v.text {
		return
	}
	t, ok := percentGlobs(text)
	if !ok {
		b.denyAll = true
		return
	}
	b.codeString(t, c)
}
