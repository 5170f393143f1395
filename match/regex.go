package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// regexFlags are the flag letters accepted after a /re/ literal. i is the one the seeds use
// (codebot, MiniCode); m and s map to the RE2 flags of the same name.
const regexFlags = "ims"

// splitSlashRegex splits a whole-string literal "/re/flags" into its source and flags, using
// the last slash as the end of the source (so "/a/b/" is the source "a/b"). ok is false when s
// does not have that shape (no leading slash, or no closing slash after it).
func splitSlashRegex(s string) (src, flags string, ok bool) {
	if len(s) < 2 || s[0] != '/' {
		return "", "", false
	}
	end := strings.LastIndexByte(s, '/')
	if end == 0 {
		return "", "", false
	}
	return s[1:end], s[end+1:], true
}

// compileRegex compiles an RE2 source with flags from regexFlags; anchored wraps it as
// ^(?:src)$ so it must match a whole string.
func compileRegex(src, flags string, anchored bool) (*regexp.Regexp, error) {
	prefix := ""
	for i := 0; i < len(flags); i++ {
		c := flags[i]
		if strings.IndexByte(regexFlags, c) < 0 {
			return nil, fmt.Errorf("unknown regex flag %q (want one of %q)", c, regexFlags)
		}
		if strings.IndexByte(prefix, c) < 0 {
			prefix += string(c)
		}
	}
	if prefix != "" {
		prefix = "(?" + prefix + ")"
	}
	if !anchored {
		return regexp.Compile(prefix + src)
	}
	// The pattern alone first: its error then quotes the user's text, not the anchored
	// form, and a pattern that only the wrapping balances (`a)|(b` in `^(?:a)|(b)$`) is
	// refused (new-user trial, stop 32).
	if _, err := syntax.Parse(prefix+src, syntax.Perl); err != nil {
		return nil, err
	}
	return regexp.Compile(prefix + "^(?:" + src + ")$")
}
