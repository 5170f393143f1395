// Package hostspec reads the entries of an SSRF allowlist (`allowed_hosts`): one grammar, used
// by the config validation (to report a bad entry with its position) and by the guard (to
// apply it), so the two can never disagree.
package hostspec

import (
	"net/netip"
	"strings"
)

// Canon lower-cases a host, strips IPv6 brackets and one trailing dot.
func Canon(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// ValidName reports whether h, already Canon'ed, is a plausible DNS name: dot-separated
// labels of 1-63 letters, digits, '-' or '_', at most 253 bytes. No wildcards, no ports.
func ValidName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// Entry is one parsed allowlist entry: a prefix (a CIDR prefix, or a single address as a
// full-length prefix, not yet normalised) or a canonical host name.
type Entry struct {
	Prefix netip.Prefix // valid when the entry is an address or a prefix
	Host   string       // set when the entry is a host name
}

// Parse reads an allowlist entry: a CIDR prefix ("10.1.0.0/16"), an IP address with or
// without brackets ("127.0.0.1", "::1", "[::1]"), or a host name (see ValidName), matched
// case-insensitively with an optional trailing dot. ok is false for anything else.
func Parse(entry string) (e Entry, ok bool) {
	s := strings.TrimSpace(entry)
	if p, err := netip.ParsePrefix(s); err == nil {
		return Entry{Prefix: p}, true
	}
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return Entry{Prefix: netip.PrefixFrom(a, a.BitLen())}, true
	}
	if h := Canon(s); ValidName(h) {
		return Entry{Host: h}, true
	}
	return Entry{}, false
}
