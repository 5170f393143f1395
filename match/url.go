package match

import (
	"net/netip"
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// urlHost returns the host a WebFetch of the URL text s reaches, as the agents read it.
// The agents parse a URL with a WHATWG URL parser (Claude Code, Gemini CLI, Copilot and
// Cursor: Node's URL; Codex: Rust's url crate), so this does too (parseURL):
// "http://127.0.0.1.:80/", "http:127.0.0.1", `http:\\127.0.0.1`,
// `http://127.0.0.1\@example.org/`, "http://0x7f.1/" and "http://2130706433/" are all
// 127.0.0.1, "https://ｅvil%2ecom/" is evil.com (red team round 39: Go's net/url read other
// hosts, or none, and Claude Code 2.1.332 fetched 127.0.0.1), and "https://a\u037Eb.evil.com/"
// is a;b.evil.com (red team round 40). The host is then cleaned (cleanHost).
//
// Text with no scheme ("evil.com/x", "127.0.0.1:80/x"), or whose scheme leaves no host
// ("evil.com:443/x" is the scheme "evil.com:"), is parsed once more with "https://" in front:
// an agent that adds a missing scheme fetches that host. Text that has a scheme is never
// parsed again (red team round 40: "https://" + "https://a\u037Eb.evil.com/x" read the host
// "https"): when it contains "://" or starts with a scheme (hasScheme), and the parser
// rejects it, urlHost returns hostUnread, since an agent whose parser reads it would fetch
// a host hookcore does not know (callers fail closed, see fetchHosts). Text with "://" that
// parses with no host ("file:///x"), and text that names no host even with "https://" in
// front ("::"), return hostNone: no agent fetches a host for it.
//
// It is one reading, the agents' own, not the union of several parsers' readings: a rule
// matches the host the agent fetches, so a deny rule and an allow rule are both right.
// A reading that matched when any of several parses did would let an allow rule permit a
// URL whose fetched host it does not name.
func urlHost(s string) (string, hostResult) {
	u, err := parseURL(s)
	if err == nil && u.Hostname() != "" {
		return hostOf(u)
	}
	if strings.Contains(s, "://") {
		if err != nil {
			return "", hostUnread
		}
		return "", hostNone
	}
	if err != nil && hasScheme(s) {
		return "", hostUnread
	}
	if u, err = parseURL("https://" + s); err != nil {
		return "", hostNone
	}
	return hostOf(u)
}

// hostResult says what urlHost found in a URL.
type hostResult uint8

const (
	hostFound  hostResult = iota // the URL's host
	hostNone                     // the URL names no host: nothing is fetched
	hostUnread                   // the URL has a scheme and hookcore cannot read it
)

// hostOf returns the cleaned host of the parsed URL u, hostNone when it is empty.
func hostOf(u *whatwg.Url) (string, hostResult) {
	if h := cleanHost(u.Hostname()); h != "" {
		return h, hostFound
	}
	return "", hostNone
}

// hasScheme reports whether s starts with a URL scheme as the WHATWG URL parser's scheme
// state reads one: after leading C0 controls and spaces, with tabs and newlines removed, an
// ASCII letter, then ASCII letters, digits, '+', '-' or '.', then ':'.
func hasScheme(s string) bool {
	s = strings.TrimLeft(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t' || c == '\n' || c == '\r':
		case 'a' <= c|0x20 && c|0x20 <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// cleanHost returns the WHATWG host h in the form domain rules compare: without the
// brackets of an IPv6 address, an IPv4-mapped IPv6 address as its IPv4 address (the
// address connected to: "[::ffff:127.0.0.1]" is 127.0.0.1), and without one trailing dot
// ("evil.com." is the same DNS name as evil.com).
func cleanHost(h string) string {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
		if a, err := netip.ParseAddr(h); err == nil && a.Is4In6() {
			return a.Unmap().String()
		}
		return h
	}
	return strings.TrimSuffix(h, ".")
}

// promptURLs returns the URLs Gemini CLI's web_fetch fetches for its prompt argument, in
// order: each run of non-space text (ECMAScript's \s, jsSpace) that contains "://" and
// parses as a WHATWG URL with the scheme http or https. That is parsePrompt in Gemini CLI's
// packages/core/src/tools/web-fetch.ts (google-gemini/gemini-cli), which fetches those
// URLs and refuses the call when another token with "://" does not parse or has another
// scheme. A token with "://" that parseURL rejects is returned too (urlHost reads it as
// hostUnread): Gemini CLI fetches it if Node's URL reads it where this parser does not.
func promptURLs(prompt string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(prompt, jsSpace) {
		if !strings.Contains(tok, "://") {
			continue
		}
		u, err := parseURL(tok)
		if err == nil && u.Scheme() != "http" && u.Scheme() != "https" {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// jsSpace reports whether r is white space to ECMAScript's \s: the WhiteSpace and
// LineTerminator code points (ECMA-262, 22.2.2.9), which Gemini CLI splits a prompt on.
// It differs from unicode.IsSpace in U+FEFF (space here) and U+0085 (not).
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f,
		0x3000, 0xfeff:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// domainStar stands for '*' while a domain pattern is read as a host (canonicalDomain):
// lower-case ASCII letters, which the host parser keeps as they are.
const domainStar = "hookcorestarhookcore"

// canonicalDomain returns the domain of a rule's "domain:" pattern d as the host parser
// reads it (urlHost), so that the pattern and the fetched host are compared in one form:
// "EXAMPLE.com." is example.com, "bücher.de" xn--bcher-kva.de, "[::1]" and "::1" are ::1,
// "0x7f.1" is 127.0.0.1. A '*' is kept as written. A pattern the host parser does not read
// as a host alone (one with '/', '?', '#', '@', '\\' or a port, or that it rejects), and a
// '*' inside a label the parser rewrites (a non-ASCII one), leave d as written, lower-cased.
func canonicalDomain(d string) string {
	if d == "" || strings.ContainsAny(d, `/?#@\`) {
		return strings.ToLower(d)
	}
	if plainDomain(d) {
		return strings.TrimSuffix(strings.ToLower(d), ".")
	}
	return parsedDomain(d)
}

// parsedDomain is canonicalDomain for a pattern with no '/', '?', '#', '@' or '\\', read
// by the host parser.
func parsedDomain(d string) string {
	s := strings.ReplaceAll(d, "*", domainStar)
	if strings.Contains(s, ":") && !strings.HasPrefix(s, "[") {
		s = "[" + s + "]"
	}
	u, err := parseURL("https://" + s + "/")
	if err != nil || u.Port() != "" {
		return strings.ToLower(d)
	}
	h := cleanHost(u.Hostname())
	if strings.Count(h, domainStar) != strings.Count(d, "*") {
		return strings.ToLower(d)
	}
	for _, label := range strings.Split(h, ".") {
		if strings.Contains(label, domainStar) && strings.HasPrefix(label, "xn--") {
			return strings.ToLower(d)
		}
	}
	return strings.ReplaceAll(h, domainStar, "*")
}

// fetchHosts returns the hosts a WebFetch call reaches (urlHost of each URL): its `url`
// argument (Claude Code, and Gemini CLI's direct-fetch mode), and the URLs of its `prompt`
// argument (promptURLs: Gemini CLI's default mode reads only the prompt). Both are read
// because hookcore does not know which mode Gemini CLI runs in; a Claude Code prompt is
// instructions, and a URL in it is read too (a deny rule may match a fetch it names, an
// allow rule must then name it as well). unread is true when one of those URLs has a
// scheme and hookcore cannot read it (hostUnread): the call may fetch a host hookcore does
// not know, which every domain deny rule matches and no domain allow rule permits (red
// team round 40). Computed once per Subject.
func (s *Subject) fetchHosts() (hosts []string, unread bool) {
	s.hostsOnce.Do(func() {
		add := func(u string) {
			switch h, r := urlHost(u); r {
			case hostFound:
				s.hosts = append(s.hosts, h)
			case hostUnread:
				s.hostsUnread = true
			}
		}
		if v, ok := s.arg("url"); ok {
			add(v)
		}
		if p, ok := s.arg("prompt"); ok {
			for _, u := range promptURLs(p) {
				add(u)
			}
		}
	})
	return s.hosts, s.hostsUnread
}

// plainDomain reports whether the domain pattern d is one the host parser returns as it is
// but for case and one trailing dot, so canonicalDomain need not run it: ASCII letters,
// digits, '-' and '*' in non-empty labels, none an A-label ("xn--"), the last starting
// with a letter or '*' (no IPv4 number). The parser's IDNA tables then stay untouched
// when a process compiles its rules (issue 9: they cost page faults in every hook
// process); TestCanonicalDomainPlain checks the two agree.
func plainDomain(d string) bool {
	d = strings.TrimSuffix(d, ".")
	labels := strings.Split(d, ".")
	for _, l := range labels {
		if l == "" || len(l) >= 4 && strings.EqualFold(l[:4], "xn--") {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i] | 0x20
			if !('a' <= c && c <= 'z' || '0' <= l[i] && l[i] <= '9' || l[i] == '-' || l[i] == '*') {
				return false
			}
		}
	}
	c := labels[len(labels)-1][0]
	return c == '*' || 'a' <= c|0x20 && c|0x20 <= 'z'
}
