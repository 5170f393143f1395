package install

import (
	"fmt"
	"strings"
)

// Diff returns a line diff of old and new in the unified style (---/+++ headers, lines
// prefixed "-", "+" or " "), whole-file context: settings files are small. It is what
// --dry-run prints; "" when they are equal.
func Diff(path string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := lines(old), lines(new)
	// Longest common subsequence table, O(len(a)·len(b)): fine for settings files.
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var sb strings.Builder
	from := path
	if old == nil {
		from = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, path)
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			sb.WriteString(" " + a[i] + "\n")
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			sb.WriteString("+" + b[j] + "\n")
			j++
		default:
			sb.WriteString("-" + a[i] + "\n")
			i++
		}
	}
	return sb.String()
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
