package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/config"
)

// TestExpectationsLimits: an --expect file gets the caps of a config file
// (config.CheckLimits) before the YAML parser sees it, whose memory grows with the square of
// the nesting (189 MB at 10 000 brackets, 15 GB at 100 000).
func TestExpectationsLimits(t *testing.T) {
	t.Parallel()
	big := "expect: []\n" + strings.Repeat("#", config.MaxFileSize)
	tests := []struct {
		name, src string
		probs     []string
	}{
		{"deep brackets", "expect: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
			[]string{"e.yaml:1:73: brackets nested more than 64 deep; the limit is 64"}},
		{"deep block sequences", "expect:\n" + strings.Repeat("- ", 10000) + "x\n",
			[]string{"e.yaml:2:257: line indented more than 256 columns; the limit is 256"}},
		{"too large", big,
			[]string{fmt.Sprintf("e.yaml: expectations file is %d bytes; the limit is 512 KiB", len(big))}},
		{"within the caps", "expect: [" + strings.Repeat("[", 62) + strings.Repeat("]", 62) + "]\n",
			[]string{"e.yaml:1:10: an expectation is a mapping (call or tool_use_id, decision, ...)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x, probs := parseExpectations([]byte(tt.src), "e.yaml")
			if d := cmp.Diff(tt.probs, probs); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			if x != nil {
				t.Error("expectations returned with problems")
			}
		})
	}
}
