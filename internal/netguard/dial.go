package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookcore/hookcore/internal/hostspec"
)

// MaxRedirects is how many redirects a guarded client follows before giving up.
const MaxRedirects = 10

// DialContext resolves the host of address ("host:port"), checks every address it resolves
// to with Check, and connects to the first that answers. The address dialled is the address
// checked: the name is never resolved a second time (no DNS rebinding). When any resolved
// address is refused the whole dial is refused, even if another one would be allowed: a name
// that points into the internal network is not one a hook should use.
//
// A host that is an IP literal, or a legacy numeric IPv4 spelling ("2130706433", "0x7f.1",
// "017700000001", "127.1"), is not resolved: it is read as the address it denotes (as
// inet_aton would) and checked as such. A numeric-looking host that is not a valid address
// ("08", "1.2.3.4.5") is refused.
func (g *Guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", address, err)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if err := g.Check(host, a); err != nil {
			return nil, err
		}
	}
	var errs []error
	for _, a := range addrs {
		target := net.JoinHostPort(a.String(), port)
		var conn net.Conn
		if g.dial != nil {
			conn, err = g.dial(ctx, network, target)
		} else {
			conn, err = g.dialChecked(ctx, network, target, host)
		}
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// dialChecked dials with a net.Dialer whose Control hook checks the address once more, on
// the socket about to connect (defence in depth).
func (g *Guard) dialChecked(ctx context.Context, network, target, host string) (net.Conn, error) {
	d := net.Dialer{
		Timeout: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &BlockedError{Host: host, Reason: "unparsable dial address " + address}
			}
			return g.Check(host, ap.Addr())
		},
	}
	return d.DialContext(ctx, network, target)
}

// resolve returns the addresses of host: the literal or numeric address it spells, or what
// the resolver says.
func (g *Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	h := hostspec.Canon(host)
	if a, err := netip.ParseAddr(h); err == nil {
		return []netip.Addr{a}, nil
	}
	if a, numeric, ok := ParseLegacyIPv4(h); numeric {
		if !ok {
			return nil, &BlockedError{Host: host, Reason: "malformed numeric IPv4 host"}
		}
		return []netip.Addr{a}, nil
	}
	if !hostspec.ValidName(h) {
		return nil, &BlockedError{Host: host, Reason: "invalid host name"}
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("resolve %s: no addresses", host)
	}
	return addrs, nil
}

// ParseLegacyIPv4 reads host the way inet_aton does: one to four dot-separated parts, each
// decimal, octal (leading 0) or hexadecimal (leading 0x); the last part fills the remaining
// bytes ("127.1" is 127.0.0.1, "2130706433" is 127.0.0.1). numeric reports whether host
// looks like such a spelling at all (every part made of digits, or 0x and hex digits); ok
// reports whether it is a valid one.
func ParseLegacyIPv4(host string) (a netip.Addr, numeric, ok bool) {
	parts := strings.Split(host, ".")
	vals := make([]uint64, 0, 4)
	numeric = true
	ok = len(parts) <= 4
	for _, p := range parts {
		v, isNum, valid := parseNumericPart(p)
		if !isNum {
			return netip.Addr{}, false, false
		}
		if !valid {
			ok = false
		}
		vals = append(vals, v)
	}
	if !ok {
		return netip.Addr{}, numeric, false
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, numeric, false
		}
		n |= v << (8 * (3 - i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, numeric, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true, true
}

// parseNumericPart reads one part of a legacy IPv4 spelling.
func parseNumericPart(p string) (v uint64, numeric, valid bool) {
	lower := strings.ToLower(p)
	switch {
	case strings.HasPrefix(lower, "0x"):
		digits := lower[2:]
		for _, c := range digits {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return 0, false, false
			}
		}
		if digits == "" {
			return 0, true, true // inet_aton reads "0x" as 0
		}
		v, err := strconv.ParseUint(digits, 16, 64)
		return v, true, err == nil
	case p == "":
		return 0, false, false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, false, false
		}
	}
	base := 10
	if len(p) > 1 && p[0] == '0' {
		base = 8
	}
	v, err := strconv.ParseUint(p, base, 64)
	return v, true, err == nil
}

// CheckURL checks what can be checked before dialling: the scheme is http or https and there
// is a host. It returns nil or a *BlockedError.
func (g *Guard) CheckURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return &BlockedError{Host: u.Host, Reason: fmt.Sprintf("scheme %q is not http or https", u.Scheme)}
	}
	if u.Hostname() == "" {
		return &BlockedError{Host: u.Host, Reason: "no host in url"}
	}
	return nil
}

// CheckRedirect is the http.Client.CheckRedirect of a guarded client: it stops after
// MaxRedirects hops and checks every hop's URL with CheckURL; the hop's address is checked
// by DialContext when it is dialled.
func (g *Guard) CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= MaxRedirects {
		return fmt.Errorf("stopped after %d redirects", MaxRedirects)
	}
	return g.CheckURL(req.URL)
}

// Transport returns a new http.Transport that dials through the guard and never uses a
// proxy from the environment (a proxy would make the address checked the proxy's).
func (g *Guard) Transport() *http.Transport {
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            g.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           16,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// Client returns a new http.Client whose transport is Transport and whose redirects are
// checked with CheckRedirect. It has no overall timeout: callers bound requests with their
// context.
func (g *Guard) Client() *http.Client {
	return &http.Client{Transport: g.Transport(), CheckRedirect: g.CheckRedirect}
}
