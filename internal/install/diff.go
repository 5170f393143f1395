package install

import (
	udiff "github.com/aymanbagabas/go-udiff"
)

// Diff returns a unified diff of old and new (---/+++ headers naming path, "/dev/null"
// for a file install creates, hunks with three lines of context, "\ No newline at end of
// file" where one lacks it): what --dry-run prints, a patch `git apply` and `patch -p0`
// take. "" when they are equal. It is go-udiff's (golang.org/x/tools' diff), whose line
// matching is bounded in time and memory on any input (red team 12: a 510 KB file of short
// lines needed hundreds of GB in a table of every pair of lines).
func Diff(path string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	from := path
	if old == nil {
		from = "/dev/null"
	}
	return udiff.Unified(from, path, string(old), string(new))
}
