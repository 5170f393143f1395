package install

import (
	"fmt"
	"strings"
)

// Diff returns a line diff of old and new in the unified style (---/+++ headers, lines
// prefixed "-", "+" or " "), whole-file context. It is what --dry-run prints; "" when they
// are equal. Memory is bounded (maxDiffCells), whatever the files' length.
func Diff(path string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := lines(old), lines(new)
	var sb strings.Builder
	from := path
	if old == nil {
		from = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, path)
	// The lines both share at the start and at the end are context; the longest common
	// subsequence table, O(len·len) in memory, covers only the middle, where install's edit
	// is, and a middle over maxDiffCells prints as removed then added (red team 12: a valid
	// 510 KB file of short lines needed hundreds of GB).
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for _, l := range a[:pre] {
		sb.WriteString(" " + l + "\n")
	}
	a, b, tail := a[pre:len(a)-suf], b[pre:len(b)-suf], a[len(a)-suf:]
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxDiffCells {
		for _, l := range a {
			sb.WriteString("-" + l + "\n")
		}
		for _, l := range b {
			sb.WriteString("+" + l + "\n")
		}
	} else {
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
	}
	for _, l := range tail {
		sb.WriteString(" " + l + "\n")
	}
	return sb.String()
}

// maxDiffCells bounds Diff's table: 4 Mi cells, 32 MiB.
const maxDiffCells = 4 << 20

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
