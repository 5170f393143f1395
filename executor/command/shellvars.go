package command

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

// Context variables in a shell command are substituted injection-proof (DESIGN.md section
// 6, conformance case 20): the value never enters the script text. Each variable becomes a
// reference to a private environment variable (__HOOKCORE_V1, __HOOKCORE_V2, ...; a value
// over 64 KiB is split over several, see substituteShell) set to its value: outside quotes $FILE_PATH becomes "${__HOOKCORE_V1}" (one word, no splitting, no
// globbing), inside double quotes and in the body of an unquoted here-document it becomes
// ${__HOOKCORE_V1}, and inside single quotes or a quoted here-document it stays as written
// (the shell's own rules). A file named `$(rm -rf ~).py` is therefore a name, never a
// command, whatever the quoting around the variable.
//
// In an arithmetic context ($(( )), (( )), let, subscripts, [[ -eq ]], ...) a variable must
// be a plain integer and is referenced unquoted; any other value fails the hook before it
// starts (arith.go, issue 10 item 6).
//
// The scan follows the shell's quoting: single and double quotes, backslash escapes, $'..',
// $(..) and `..` nesting (each starting a fresh unquoted context), comments and
// here-documents. Were it ever to misjudge a context in exotic syntax, the value would still
// arrive only through a variable expansion, never as code.

const varPrefix = "__HOOKCORE_V"

type quoting int

const (
	bare quoting = iota
	inDouble
	inHeredoc
)

type frameKind int

const (
	top     frameKind = iota // the script itself
	subst                    // $( .. ), including $(( .. ))
	backtik                  // ` .. `
	dquote                   // " .. "
)

type frame struct {
	kind  frameKind
	depth int // open parentheses inside a subst frame
}

type heredoc struct {
	delim  string
	quoted bool
	strip  bool // <<-: leading tabs are stripped from body lines
}

// scanShell copies script, calling emit for each context variable where the shell would
// expand it.
func scanShell(script string, emit func(b *strings.Builder, name string, q quoting, off int)) string {
	if !strings.Contains(script, "$") {
		return script
	}
	var b strings.Builder
	b.Grow(len(script) + 32)
	stack := []frame{{kind: top}}
	var pending []heredoc
	s := script
	i := 0
	copyN := func(n int) {
		if i+n > len(s) {
			n = len(s) - i
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	for i < len(s) {
		c := s[i]
		f := &stack[len(stack)-1]
		if f.kind == dquote {
			switch {
			case c == '\\':
				copyN(2)
			case c == '"':
				stack = stack[:len(stack)-1]
				copyN(1)
			case c == '`':
				stack = append(stack, frame{kind: backtik})
				copyN(1)
			case c == '$' && i+1 < len(s) && s[i+1] == '(':
				stack = append(stack, frame{kind: subst})
				copyN(2)
			case c == '$':
				if name, end, ok := hookio.At(s, i); ok {
					emit(&b, name, inDouble, i)
					i = end
				} else {
					copyN(1)
				}
			default:
				copyN(1)
			}
			continue
		}
		switch {
		case c == '\\':
			copyN(2)
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				copyN(len(s) - i)
			} else {
				copyN(end + 2)
			}
		case c == '"':
			stack = append(stack, frame{kind: dquote})
			copyN(1)
		case c == '`':
			if f.kind == backtik {
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, frame{kind: backtik})
			}
			copyN(1)
		case c == '(' && f.kind == subst:
			f.depth++
			copyN(1)
		case c == ')' && f.kind == subst:
			if f.depth == 0 {
				stack = stack[:len(stack)-1]
			} else {
				f.depth--
			}
			copyN(1)
		case c == '#' && (i == 0 || strings.IndexByte(" \t\n;&|()", s[i-1]) >= 0):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			copyN(end)
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			stack = append(stack, frame{kind: subst})
			copyN(2)
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			// $'..' (bash): backslash escapes, no expansion.
			j := i + 2
			for j < len(s) && s[j] != '\'' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			copyN(j + 1 - i)
		case c == '$':
			if name, end, ok := hookio.At(s, i); ok {
				emit(&b, name, bare, i)
				i = end
			} else {
				copyN(1)
			}
		case strings.HasPrefix(s[i:], "<<<"):
			copyN(3)
		case strings.HasPrefix(s[i:], "<<"):
			copyN(2)
			h := heredoc{}
			if i < len(s) && s[i] == '-' {
				h.strip = true
				copyN(1)
			}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				copyN(1)
			}
			start := i
			for i < len(s) && strings.IndexByte(" \t\n;&|<>()", s[i]) < 0 {
				switch s[i] {
				case '\'', '"':
					h.quoted = true
					q := s[i]
					end := strings.IndexByte(s[i+1:], q)
					if end < 0 {
						i = len(s)
					} else {
						i += end + 2
					}
				case '\\':
					h.quoted = true
					i += 2
				default:
					i++
				}
			}
			if i > len(s) {
				i = len(s)
			}
			word := s[start:i]
			b.WriteString(word)
			h.delim = strings.NewReplacer("'", "", "\"", "", "\\", "").Replace(word)
			if h.delim != "" {
				pending = append(pending, h)
			}
		case c == '\n' && len(pending) > 0:
			copyN(1)
			for _, h := range pending {
				i = copyHeredoc(&b, s, i, h, emit)
			}
			pending = pending[:0]
		default:
			copyN(1)
		}
	}
	return b.String()
}

// copyHeredoc copies the body of one here-document starting at s[i] up to and including
// its delimiter line, and returns the index after it.
func copyHeredoc(b *strings.Builder, s string, i int, h heredoc, emit func(*strings.Builder, string, quoting, int)) int {
	for i < len(s) {
		end := strings.IndexByte(s[i:], '\n')
		line := s[i:]
		if end >= 0 {
			line = s[i : i+end+1]
		}
		check := strings.TrimSuffix(line, "\n")
		if h.strip {
			check = strings.TrimLeft(check, "\t")
		}
		if check == h.delim || h.quoted {
			b.WriteString(line)
			i += len(line)
			if check == h.delim {
				return i
			}
			continue
		}
		for j := 0; j < len(line); {
			switch {
			case line[j] == '\\' && j+1 < len(line):
				b.WriteString(line[j : j+2])
				j += 2
			case line[j] == '$':
				if name, e, ok := hookio.At(line, j); ok {
					emit(b, name, inHeredoc, i+j)
					j = e
					continue
				}
				b.WriteByte('$')
				j++
			default:
				b.WriteByte(line[j])
				j++
			}
		}
		i += len(line)
	}
	return i
}

// shellVars is the result of substituting a shell command: the new script and the
// environment entries its references need.
type shellVars struct {
	script string
	env    []string
	err    error // a context variable in an arithmetic context is not a plain integer
}

// substituteShell rewrites the context variables of script into references to private
// environment variables holding their values for in (see the comment at the top of this
// file). The same variable used twice shares one environment variable.
//
// A value longer than envChunk (64 KiB) would pass Linux's cap on one environment string
// (128 KiB) if it grew, so it is split over several variables, __HOOKCORE_V1_0,
// __HOOKCORE_V1_1, ..., referenced one after the other: "${__HOOKCORE_V1_0}${__HOOKCORE_V1_1}"
// bare, ${__HOOKCORE_V1_0}${__HOOKCORE_V1_1} in double quotes: still one word with the
// exact content. The script then depends on the values' lengths, never on their content.
//
// A variable in an arithmetic context must be a plain integer and is referenced unquoted
// there (see arith.go); otherwise out.err wraps ErrArithValue.
func substituteShell(script string, in *hook.Input) shellVars {
	var out shellVars
	refs := map[string]string{}
	var arith map[int]bool
	arithAll, arithDone := false, false
	out.script = scanShell(script, func(b *strings.Builder, name string, q quoting, off int) {
		if !arithDone { // only a script with context variables is parsed
			arithDone = true
			arith, arithAll = arithRefs(script)
		}
		if arithAll || arith[off] {
			if v := hookio.Value(in, name); !plainInteger(v) {
				if out.err == nil {
					out.err = fmt.Errorf("$%s is %.40q, used in an arithmetic context: %w", name, v, ErrArithValue)
				}
				b.WriteString("0")
				return
			}
			q = inDouble // unquoted: dash refuses a quoted word in $(( ))
		}
		ref, ok := refs[name]
		if !ok {
			base := varPrefix + strconv.Itoa(len(refs)+1)
			if v := hookio.Value(in, name); len(v) <= envChunk {
				ref = `${` + base + `}`
				out.env = append(out.env, base+"="+v)
			} else {
				for i, part := range chunks(v) {
					key := base + "_" + strconv.Itoa(i)
					ref += `${` + key + `}`
					out.env = append(out.env, key+"="+part)
				}
			}
			refs[name] = ref
		}
		if q == bare {
			b.WriteString(`"` + ref + `"`)
		} else {
			b.WriteString(ref)
		}
	})
	return out
}

// inlineShell writes the values themselves into script, for Command.Key only: the result
// is never run.
func inlineShell(script string, in *hook.Input) string {
	return scanShell(script, func(b *strings.Builder, name string, _ quoting, _ int) {
		b.WriteString(hookio.Value(in, name))
	})
}
