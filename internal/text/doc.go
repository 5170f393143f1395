// Package text holds the string helpers every layer of hookcore shares, the vocabulary
// package hook included: Truncate, the one rune-safe way to shorten a string, and
// Printable, which makes untrusted text safe to print on one terminal line. It imports the
// standard library only (DESIGN.md section 2), so that any package may import it.
package text
