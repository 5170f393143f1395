package shell_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/shell"
)

// TestFed: the commands xargs and GNU parallel run, with their input's producers, the same
// by the fast path and the parser (red team round 54).
func TestFed(t *testing.T) {
	defer shell.SetFastLine(true)
	for _, tc := range []struct {
		line string
		want []shell.Fed
	}{
		{"echo ~/go | xargs rm -rf", []shell.Fed{{Command: []string{"rm", "-rf"}, Producers: [][]string{{"echo", "~/go"}}}}},
		{"find ~ -type f | sort | xargs -0 rm -f", []shell.Fed{{Command: []string{"rm", "-f"}, Producers: [][]string{{"find", "~", "-type", "f"}, {"sort"}}, Delim: "\x00"}}},
		{"echo ~ | xargs -I% cp -r /tmp/s/. %", []shell.Fed{{Command: []string{"cp", "-r", "/tmp/s/.", "%"}, Marker: "%", Producers: [][]string{{"echo", "~"}}, Delim: "\n"}}},
		{"ls; xargs -a list rm", []shell.Fed{{Command: []string{"rm"}}}},
		{"echo x | xargs -a list rm", []shell.Fed{{Command: []string{"rm"}}}},
		{"echo ~/go | parallel rm -rf", []shell.Fed{{Command: []string{"rm", "-rf"}, Marker: "{}", Producers: [][]string{{"echo", "~/go"}}, Delim: "\n"}}},
		{"parallel rm -rf ::: a b", []shell.Fed{{Command: []string{"rm", "-rf"}, Marker: "{}", Args: []string{"a", "b"}, Delim: "\n"}}},
		{"echo a && ls | sudo xargs wc -l", []shell.Fed{{Command: []string{"wc", "-l"}, Producers: [][]string{{"ls"}}}}},
		{"ls | wc -l", nil},
		// The items' delimiter (stop 32): the last of -0 and -d; -I reads lines.
		{`ls | xargs -d '\n' rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}, Delim: "\n"}}},
		{`ls | xargs -d , rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}}}},
		{`ls | xargs -d $D rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}}}},
		{`ls | xargs -0 -d '\n' rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}, Delim: "\n"}}},
		{`ls | xargs -d '\n' --null rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}, Delim: "\x00"}}},
		{`ls | xargs -I{} -0 rm {}`, []shell.Fed{{Command: []string{"rm", "{}"}, Marker: "{}", Producers: [][]string{{"ls"}}, Delim: "\x00"}}},
		{`ls | xargs -L1 rm`, []shell.Fed{{Command: []string{"rm"}, Producers: [][]string{{"ls"}}}}},
		{`ls | parallel --colsep , rm`, []shell.Fed{{Command: []string{"rm"}, Marker: "{}", Producers: [][]string{{"ls"}}}}},
	} {
		for _, fast := range []bool{false, true} {
			shell.SetFastLine(fast)
			if diff := cmp.Diff(tc.want, shell.Parse(tc.line).Fed()); diff != "" {
				t.Errorf("%q (fast path %v): Fed() (-want +got):\n%s", tc.line, fast, diff)
			}
		}
	}
}
