package match

import (
	"strings"
	"sync"
	"unicode/utf8"

	whatwg "github.com/nlnwa/whatwg-url/url"
	"golang.org/x/net/idna"
)

// parseURL parses s as a WHATWG URL, as Node's URL does (Claude Code, Gemini CLI, Copilot,
// Cursor; Codex's Rust url crate follows the same standard). It is nlnwa/whatwg-url's
// parser but for the domain-to-ASCII step of a special URL's host (domainHost), which that
// library runs with UTS 46's STD3 rules: it rejects "https://a\u037Eb.evil.com/" (U+037E
// maps to ';'), which Node reads as the host a;b.evil.com and Claude Code 2.1.332 fetched
// (red team round 40). The library's host parser is given a stand-in host it keeps as it
// is, and the stand-in is replaced by the host read here; a host read here that ends in a
// number is handed to the library as it is, for its IPv4 parser, and one that fails here
// is handed over as "%", which the library rejects, so the URL fails as the standard says.
func parseURL(s string) (*whatwg.Url, error) {
	var host string
	p := whatwg.NewParser(
		whatwg.WithPreParseHostFunc(func(u *whatwg.Url, in string) string {
			host = ""
			if in == "" || in[0] == '[' || !u.IsSpecialScheme() {
				return in // empty, IPv6 or opaque: the library's reading is the standard's
			}
			h, ok := domainHost(in)
			switch {
			case !ok:
				return "%"
			case endsInNumber(h):
				return h
			}
			host = h
			return standInHost
		}),
		whatwg.WithPostParseHostFunc(func(_ *whatwg.Url, h string) string {
			if host != "" && h == standInHost {
				return host
			}
			return h
		}),
	)
	return p.Parse(s)
}

// standInHost is the host parseURL hands nlnwa/whatwg-url in place of the one it read:
// lower-case ASCII letters, '-' and '.', which the library's host parser returns as they are.
const standInHost = "hookcore-host.invalid"

// domainHost is the WHATWG host parser's reading of in, a special URL's host that is not an
// IPv6 address (URL Standard, "host parsing", steps 4 to 8): in percent-decoded, which must be
// UTF-8, then domainToASCII, which must contain no forbidden domain code point (C0 controls,
// space, '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|', U+007F; ';', '(',
// '+', '!' and '`' are allowed, and Node keeps them). It returns false when the standard's
// host parser fails.
func domainHost(in string) (string, bool) {
	d := percentDecode(in)
	if !utf8.ValidString(d) {
		return "", false
	}
	a, ok := domainToASCII(d)
	if !ok {
		return "", false
	}
	for i := 0; i < len(a); i++ {
		if whatwg.ForbiddenDomainCodePoint.Test(uint(a[i])) {
			return "", false
		}
	}
	return a, true
}

// domainToASCII is the URL Standard's "domain to ASCII" with beStrict false: an ASCII domain
// with no label starting "xn--" is lower-cased and nothing else (which keeps IDNA's tables
// untouched for it); any other is UTS 46 ToASCII with the standard's parameters
// (whatwgIDNA). It returns false on an error or an empty result.
func domainToASCII(d string) (string, bool) {
	if isASCII(d) && !hasACELabel(d) {
		return strings.ToLower(d), true
	}
	a, err := whatwgIDNA().ToASCII(d)
	return a, err == nil && a != ""
}

// whatwgIDNA returns the UTS 46 profile of the URL Standard's "domain to ASCII":
// CheckHyphens false, CheckBidi true, CheckJoiners true, UseSTD3ASCIIRules false,
// Transitional_Processing false, VerifyDnsLength false. It differs from nlnwa/whatwg-url's
// own profile only in STD3 rules, which the standard leaves off. Built on first use: a hook
// process whose URLs are ASCII never builds it.
var whatwgIDNA = sync.OnceValue(func() *idna.Profile {
	return idna.New(
		idna.MapForLookup(), // sets STD3 rules, turned off below
		idna.BidiRule(),
		idna.CheckJoiners(true),
		idna.CheckHyphens(false),
		idna.StrictDomainName(false),
		idna.Transitional(false),
		idna.ValidateLabels(true),
		idna.VerifyDNSLength(false),
	)
})

// percentDecode is the URL Standard's percent-decode of a string's UTF-8 bytes: each '%'
// followed by two hexadecimal digits becomes that byte; any other byte is kept.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// endsInNumber is the URL Standard's "ends in a number checker": whether the last label of
// h (after one trailing empty label is dropped) is all ASCII digits, or "0x"/"0X" and hex
// digits, so that the host parser reads h as an IPv4 address.
func endsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") || strings.HasPrefix(last, "0X") {
		last = last[2:]
		for i := 0; i < len(last); i++ {
			if !isHex(last[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hasACELabel reports whether a label of the domain d starts with "xn--", in any case.
func hasACELabel(d string) bool {
	for _, l := range strings.Split(d, ".") {
		if len(l) >= 4 && strings.EqualFold(l[:4], "xn--") {
			return true
		}
	}
	return false
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return (c | 0x20) - 'a' + 10
}
