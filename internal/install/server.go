package install

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// CheckServer checks a --server value, the base URL of a `hookcore serve`: an absolute
// http:// or https:// URL with a host, an optional port (1–65535), no path but "/" (serve
// answers under no prefix, and Claude Code lets a call through on a 404), and no user
// info, query or fragment. Its characters are limited to letters, digits and "-._~:/[]%",
// since the agents other than Claude Code run it as part of a command line
// (`hookcore hook AGENT --server URL`), where a space, quote or ";" would change the
// command; the URL is shell-quoted there when it holds the "[]" of an IPv6 host, which a
// shell globs (red team 11). loopback reports whether the host is 127.0.0.0/8, ::1 or localhost, the hosts
// `hookcore serve` answers by default (a serve on another host needs --allow-remote and its
// token). Checked because Claude Code lets an action through when an http hook's server
// cannot be reached (new-user trial, stop 22: "notaurl" was written as a URL).
func CheckServer(s string) (loopback bool, err error) {
	fail := func(msg string) (bool, error) {
		return false, fmt.Errorf("--server %q: %s (want the URL of a hookcore serve, such as http://127.0.0.1:7878)", s, msg)
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !serverChar(r) }); i >= 0 {
		if c := s[i]; c == '?' || c == '#' || c == '@' {
			return fail("a query, fragment or user info has no place in it")
		}
		return fail(fmt.Sprintf("%q is not a character hookcore writes into an agent's hook command", s[i:i+1]))
	}
	if l := strings.ToLower(s); !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return fail("not an absolute http:// or https:// URL")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fail(err.Error())
	}
	host := u.Hostname()
	if host == "" {
		return fail("no host")
	}
	if u.Path != "" && u.Path != "/" || u.RawPath != "" {
		// serve answers at /hook/claude and /v1/answer/AGENT only, under no prefix: Claude
		// Code lets a call through when its http hook gets a 404 (red team round 65:
		// http://127.0.0.1:7878/a%20b was written as .../a%20b/hook/claude).
		return fail(fmt.Sprintf("a path (%q) has no place in it: hookcore serve answers only at the server's root", u.EscapedPath()))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fail("port " + p + " is out of range")
		}
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// serverChar reports whether r may appear in a --server URL: RFC 3986's unreserved
// characters, the ":" and "/" of scheme, port and path, "[]" of an IPv6 host and "%" of an
// escape. Only "[]" is special to a POSIX shell (a glob), and entry quotes it.
func serverChar(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return true
	}
	return strings.ContainsRune("-._~:/[]%", r)
}
