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
	// The pattern alone is checked where the wrapping could change its reading: an error
	// then quotes the user's text, not the anchored form, and a pattern that only the
	// wrapping balances (`a)|(b` in `^(?:a)|(b)$`, which needs a ")") is refused (new-user
	// trial, stop 32). Most matchers have no ")" and are parsed once, at every hook start.
	if strings.IndexByte(src, ')') >= 0 {
		if _, err := syntax.Parse(prefix+src, syntax.Perl); err != nil {
			return nil, err
		}
	}
	re, err := regexp.Compile(prefix + "^(?:" + src + ")$")
	if err != nil {
		if _, alone := syntax.Parse(prefix+src, syntax.Perl); alone != nil {
			return nil, alone
		}
	}
	return re, err
}
