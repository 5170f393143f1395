package shell

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestPossible checks the NFA run over texts with holes on chosen cases.
func TestPossible(t *testing.T) {
	t.Parallel()
	lit := func(s string) piece { return piece{text: s} }
	anyHole := piece{hole: true}
	word := piece{hole: true, word: true}
	tests := []struct {
		re   string
		h    holeText
		want bool
	}{
		{`(?s)^rm -rf(?:\s.*)?$`, holeText{lit("rm"), word, lit(" build")}, true},
		{`(?s)^rm -rf(?:\s.*)?$`, holeText{lit("rm -i"), word}, false},
		{`(?s)^rm build$`, holeText{lit("rm"), word, lit(" build")}, true}, // the word vanishes
		{`(?s)^rm build$`, holeText{lit("rm "), anyHole, lit(" x")}, false},
		{`(?s)^lsof(?:\s.*)?$`, holeText{lit("ls"), word}, false},
		{`(?s)^git push(?:\s.*)?$`, holeText{lit("git"), word, lit(" origin main")}, true},
		{`(?s)^a$`, holeText{anyHole}, true},
		{`(?s)^$`, holeText{anyHole}, true},
		{`(?s)^ab$`, holeText{lit("a"), anyHole, lit("c")}, false},
		{`x`, holeText{lit("a"), anyHole}, true}, // unanchored: the hole may hold it
		{`x`, holeText{lit("ab")}, false},
		{`(?i)^RM -RF`, holeText{lit("rm"), word}, true},
		{`^a\nb$`, holeText{lit("a"), anyHole, lit("b")}, true}, // a hole may hold a newline
	}
	for _, tt := range tests {
		r := NewRule(regexp.MustCompile(tt.re))
		if got := possible(r.prog, tt.h); got != tt.want {
			t.Errorf("possible(%q, %v) = %v, want %v", tt.re, tt.h, got, tt.want)
		}
	}
}

// TestPossibleSound checks, on random rules and texts, that possible is true whenever some
// filling of the holes (strings of up to 3 runes of a small alphabet) matches the rule.
func TestPossibleSound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	alpha := []string{"a", "b", " "}
	var fills []string
	var gen func(s string, n int)
	gen = func(s string, n int) {
		fills = append(fills, s)
		if n == 0 {
			return
		}
		for _, c := range alpha {
			gen(s+c, n-1)
		}
	}
	gen("", 3)
	randLit := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteString(alpha[rng.Intn(len(alpha))])
		}
		return sb.String()
	}
	pats := []string{"*", " *", ":*", ""}
	for i := 0; i < 300; i++ {
		// A rule as match compiles it: literal runs and '*', maybe a prefix suffix.
		var src strings.Builder
		src.WriteString("(?s)^")
		for j := rng.Intn(3); j >= 0; j-- {
			src.WriteString(regexp.QuoteMeta(randLit(rng.Intn(3))))
			if rng.Intn(2) == 0 {
				src.WriteString(".*")
			}
		}
		switch pats[rng.Intn(len(pats))] {
		case " *", ":*":
			src.WriteString(`(?:\s.*)?$`)
		case "":
			src.WriteString("$")
		}
		re := regexp.MustCompile(src.String())
		r := NewRule(re)
		var h holeText
		var holes []int
		for j := rng.Intn(3); j >= 0; j-- {
			h = append(h, piece{text: randLit(rng.Intn(3))})
			if rng.Intn(2) == 0 {
				holes = append(holes, len(h))
				h = append(h, piece{hole: true, word: rng.Intn(2) == 0})
			}
		}
		got := possible(r.prog, h)
		// Brute force over fillings of up to two holes.
		var try func(k int, out string) bool
		try = func(k int, out string) bool {
			if k == len(h) {
				return re.MatchString(out)
			}
			p := h[k]
			if !p.hole {
				return try(k+1, out+p.text)
			}
			for _, f := range fills {
				v := f
				if p.word {
					if f != "" {
						v = " " + f
					}
				}
				if try(k+1, out+v) {
					return true
				}
			}
			return false
		}
		if len(holes) <= 2 && try(0, "") && !got {
			t.Fatalf("possible(%q, %v) = false, but a filling matches", re, h)
		}
	}
}

// BenchmarkMatchRuleHoles measures a deny rule on a line whose texts have holes (the NFA
// run) against one whose texts are static (the regexp alone).
func BenchmarkMatchRuleHoles(b *testing.B) {
	r := NewRule(regexp.MustCompile(`(?s)^rm -rf(?:\s.*)?$`))
	for _, bc := range []struct{ name, line string }{
		{"static", `rm -i build && git push origin main`},
		{"holes", `rm -i "$f" build && git $p origin "$(date)"`},
	} {
		c := Parse(bc.line)
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.MatchRule(r)
			}
		})
	}
}
