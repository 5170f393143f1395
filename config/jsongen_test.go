package config

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJSONTreeRandomDocuments: for 3 000 random JSON objects laid out every way JSON allows
// (blanks, \n, \r\n and lone \r between any tokens, blanks after a scalar before a line
// break), with keys and strings of escapes, non-ASCII runes and bytes that are not UTF-8,
// and numbers of every form, jsonTree builds the YAML parser's tree, skimmed and whole; and
// for the first 300, parse gives the same File and problems with and without it. Not
// parallel: it swaps jsonAST and skim.
func TestJSONTreeRandomDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 30))
	built := 0
	for i := range 3000 {
		src := randomJSON(r)
		data := []byte(src)
		if !isJSONObject(data) {
			t.Fatalf("the generator wrote invalid JSON: %q", src)
		}
		for _, text := range [][]byte{data, skimJSON(data)} {
			ok, diff := sameTree(text)
			if diff != "" {
				t.Fatalf("%q:\n%s", text, diff)
			}
			if ok {
				built++
			}
		}
		if i < 300 {
			if diff := fastPathDiff("/p/.claude/settings.json", data, Project, false); diff != "" {
				t.Fatalf("%q:\n%s", src, diff)
			}
		}
	}
	t.Logf("%d of 6 000 trees built", built)
	if built < 3000 {
		t.Errorf("only %d of 6 000 trees built", built)
	}
}

// randomJSON writes a random JSON object: hook-shaped at times (a hooks key of events, matcher
// groups and command hooks), otherwise any values, nested at most 6 deep.
func randomJSON(r *rand.Rand) string {
	g := &jsonGen{r: r}
	g.ws()
	if r.IntN(2) == 0 {
		g.hooksObject()
	} else {
		g.object(0)
	}
	g.ws()
	return g.b.String()
}

type jsonGen struct {
	r *rand.Rand
	b strings.Builder
}

var (
	genSpaces = []string{"", "", "", " ", " ", "  ", "\n", "\n  ", "\r\n", "\r\n    ", "\r", "\n\r", " \n", "   \n", "  \r\n", "\n\n", " \r "}
	genKeys   = []string{"hooks", "type", "command", "matcher", "timeout", "async", "args", "env", "permissions",
		"$schema", "*x", "<<", "", "é", "日本", "k😀", `h\u006fok`, `\u00e9`, `a\"b`, `a\\b`, "\xff", "true", "1", "~",
		"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "a.b", "[x]", "x'"}
	genStrings = []string{"", "x", "true", "echo hi", "Bash", "é", "日本語", "😀", "\u2028", "\u0085", "\xff", "\xe2\x80",
		`\n`, `\"`, `\\`, `\/`, `\b\f\r\t`, `\u00e9`, `\u0041`, `\uD83D\uDE00`, `\ud83d\ude00`, `\uDC00`, `\u0000`, `\u2028`,
		": ", " #", "- x", "---", "...", "{", "]", ",", "*a", "&a", "!x", "%x", "@", "`", "|", ">", "?", "'"}
	genNumbers = []string{"0", "-0", "1", "-12", "30", "1.5", "-0.0", "1.0", "1e3", "1E+2", "-1e-2", "0.5e-3", "1e400",
		"-1e400", "9223372036854775807", "9223372036854775808", "18446744073709551616", "-9223372036854775809", "0e0"}
	genEvents = []string{"PreToolUse", "PostToolUse", "Stop", "BeforeTool", "preToolUse", "beforeShellExecution", "Bogus"}
)

func (g *jsonGen) pick(list []string) string { return list[g.r.IntN(len(list))] }
func (g *jsonGen) ws()                       { g.b.WriteString(g.pick(genSpaces)) }

// scalarWS writes what may follow a scalar: blanks before a line break, at times.
func (g *jsonGen) scalarWS() {
	if g.r.IntN(4) == 0 {
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(4)) + g.pick([]string{"\n", "\r\n", "\r"}))
	}
	g.ws()
}

func (g *jsonGen) str(parts []string) {
	g.b.WriteByte('"')
	for range g.r.IntN(3) + 1 {
		g.b.WriteString(g.pick(parts))
	}
	g.b.WriteByte('"')
}

func (g *jsonGen) members(n int, member func(i int)) {
	g.b.WriteByte('{')
	g.ws()
	for i := range n {
		if i > 0 {
			g.b.WriteByte(',')
			g.ws()
		}
		member(i)
		g.ws()
	}
	g.b.WriteByte('}')
}

func (g *jsonGen) key(k string) {
	g.b.WriteString(`"` + k + `"`)
	g.ws()
	g.b.WriteByte(':')
	g.ws()
}

func (g *jsonGen) object(depth int) {
	used := map[string]bool{}
	g.members(g.r.IntN(5), func(int) {
		k := g.pick(genKeys)
		for used[k] && g.r.IntN(20) != 0 { // a duplicate now and then
			k = g.pick(genKeys)
		}
		used[k] = true
		g.key(k)
		g.value(depth + 1)
	})
}

func (g *jsonGen) value(depth int) {
	switch n := g.r.IntN(10); {
	case n < 2 && depth < 6:
		g.object(depth)
	case n < 4 && depth < 6:
		g.b.WriteByte('[')
		g.ws()
		for i := range g.r.IntN(4) {
			if i > 0 {
				g.b.WriteByte(',')
				g.ws()
			}
			g.value(depth + 1)
			g.ws()
		}
		g.b.WriteByte(']')
	case n < 7:
		g.str(genStrings)
	case n < 9:
		g.b.WriteString(g.pick(genNumbers))
		g.scalarWS()
	default:
		g.b.WriteString(g.pick([]string{"true", "false", "null"}))
		g.scalarWS()
	}
}

// hooksObject writes a settings file: other keys, and hooks of events, matcher groups and
// command hooks with a field or two of the wrong type or name.
func (g *jsonGen) hooksObject() {
	g.members(g.r.IntN(3)+1, func(i int) {
		if i > 0 {
			g.key(g.pick(genKeys))
			g.value(1)
			return
		}
		g.key("hooks")
		g.members(g.r.IntN(3), func(int) {
			g.key(g.pick(genEvents))
			g.b.WriteByte('[')
			g.ws()
			g.members(2, func(j int) {
				if j == 0 {
					g.key("matcher")
					g.str([]string{"Bash", "*", "Edit|Write", "é", `\u00e9`})
					return
				}
				g.key("hooks")
				g.b.WriteByte('[')
				g.members(g.r.IntN(3)+2, func(k int) {
					switch k {
					case 0:
						g.key("type")
						g.str([]string{"command", "comand", "http"})
					case 1:
						g.key("command")
						g.str(genStrings)
					default:
						g.key(g.pick([]string{"timeout", "async", "args", "statusMessage", "bogus"}))
						g.value(5)
					}
				})
				g.b.WriteByte(']')
			})
			g.ws()
			g.b.WriteByte(']')
		})
	})
}
