package shell

import (
	"strings"
	"testing"
)

// TestPipeProducersWalkedOnDemand: a pipe's left side is walked for its producers only for
// an xargs or parallel on its right, once each; a pipeline used to be walked
// at every pipe (quadratic: match's 100 000-command case took minutes, and -race on a loaded
// machine passed go test's ten-minute timeout).
func TestPipeProducersWalkedOnDemand(t *testing.T) {
	// Not parallel: producerWalks is the package's counter.
	long := strings.Repeat("a x|", 200) // past the fast path (maxFastCommands)
	for _, tt := range []struct {
		command string
		want    int64
	}{
		{long + "rm -rf /", 0},
		{long + "xargs rm", 1},
		{"ls|xargs rm", 0}, // the fast path knows the words without a walk
	} {
		before := producerWalks.Load()
		Parse(tt.command)
		if got := producerWalks.Load() - before; got != tt.want {
			t.Errorf("%.40q…: %d walks of a pipe's left side, want %d", tt.command, got, tt.want)
		}
	}
}
