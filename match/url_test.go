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
			f, err := CompileIf(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			args := `{"url":` + jsonString(tt.url) + `,"prompt":"summarise"}`
			s := NewSubject("PreToolUse", "WebFetch", json.RawMessage(args))
			if got := f.Match(s); got != tt.want {
				t.Errorf("%s.Match(%s) = %v, want %v", tt.rule, args, got, tt.want)
			}
			if got := f.Allows(s); got != tt.want {
				t.Errorf("%s.Allows(%s) = %v, want %v", tt.rule, args, got, tt.want)
			}
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := CompileIf(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSubject("PreToolUse", "WebFetch", json.RawMessage(tt.args))
			if got := f.Match(s); got != tt.match {
				t.Errorf("%s.Match(%s) = %v, want %v", tt.rule, tt.args, got, tt.match)
			}
			if got := f.Allows(s); got != tt.allows {
				t.Errorf("%s.Allows(%s) = %v, want %v", tt.rule, tt.args, got, tt.allows)
			}
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
