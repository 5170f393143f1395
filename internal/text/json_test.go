package text

import "testing"

func TestSkipJSONSpace(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		i    int
		want int
	}{
		{"", 0, 0},
		{" \t\r\n{", 0, 4},
		{"{ }", 1, 2},
		{"   ", 1, 3},
		{"\f{", 0, 0},     // form feed is not JSON white space
		{"\u00a0{", 0, 0}, // nor is a no-break space
		{"ab", 2, 2},
	} {
		if got := SkipJSONSpace([]byte(tt.in), tt.i); got != tt.want {
			t.Errorf("SkipJSONSpace(%q, %d) = %d, want %d", tt.in, tt.i, got, tt.want)
		}
	}
}
