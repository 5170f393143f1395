package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestCodexTOMLLineCap: a Codex config.toml has at most MaxTOMLLines lines; past them it
// does not load, with the line where the cap was passed, and the TOML library never sees
// it. Its time is quadratic in the tables: 88 000 one-line headers took 10 s at every hook
// event (stop 23, red team round 15).
func TestCodexTOMLLineCap(t *testing.T) {
	t.Parallel()
	past := strings.Repeat("#\n", MaxTOMLLines) + "[t]\n"
	f, probs := parseCodexTOML("/p/.codex/config.toml", []byte(past), Project)
	if !f.Failed || len(probs) != 1 || probs[0].Pos.Line != MaxTOMLLines+1 || !strings.Contains(probs[0].Msg, "the limit for a config.toml is 10000") {
		t.Errorf("failed %v, %v", f.Failed, probs)
	}
	ok := "model = \"o3\"\n[hooks]\n" + strings.Repeat("#\n", MaxTOMLLines-3)
	if f, probs := parseCodexTOML("/p/.codex/config.toml", []byte(ok), Project); f.Failed || probs.Err() != nil {
		t.Errorf("at the cap: failed %v, %v", f.Failed, probs)
	}
}

// TestCodexTOMLSizeCap: a Codex config.toml is at most MaxTOMLSize bytes, whatever its lines:
// one line of an inline table with 100 000 keys took 10 s (red team round 16).
func TestCodexTOMLSizeCap(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("[hooks]\nx = {")
	for i := 0; b.Len() <= MaxTOMLSize; i++ {
		fmt.Fprintf(&b, "k%d=1,", i)
	}
	b.WriteString("z=1}\n")
	f, probs := parseCodexTOML("/p/.codex/config.toml", []byte(b.String()), Project)
	if !f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, "the limit is 64 KiB") {
		t.Errorf("failed %v, %v", f.Failed, probs)
	}
}
