package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"

	"github.com/hookcore/hookcore/internal/hostspec"

	"code.dny.dev/ssrf"
)

// ErrBlocked is wrapped by every refusal of the guard; test it with errors.Is.
var ErrBlocked = errors.New("destination blocked by the ssrf guard")

// BlockedError is the guard's refusal of one destination. It wraps ErrBlocked.
type BlockedError struct {
	Host   string     // the host name as written in the URL (or the redirect)
	Addr   netip.Addr // the address it resolved to; invalid when the host itself was refused
	Reason string     // why, for people: "loopback address", "scheme ftp is not http or https", ...
}

func (e *BlockedError) Error() string {
	if e.Addr.IsValid() && e.Addr.String() != e.Host {
		return fmt.Sprintf("%v: %s (%s): %s", ErrBlocked, e.Host, e.Addr, e.Reason)
	}
	return fmt.Sprintf("%v: %s: %s", ErrBlocked, e.Host, e.Reason)
}

func (e *BlockedError) Unwrap() error { return ErrBlocked }

// Resolver looks up the addresses of a host name. *net.Resolver implements it; tests give a
// map so that no real DNS is asked.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configures a Guard. The zero value refuses every non-public destination and
// resolves with net.DefaultResolver.
type Options struct {
	// Allow opens destinations the guard would refuse. Each entry is a host name (matched
	// case-insensitively, without port: "hooks.internal.example", "localhost"), an IP
	// address ("127.0.0.1", "::1") or a CIDR prefix ("10.1.0.0/16"). A host name entry
	// opens every address that name resolves to; an address or prefix entry opens those
	// addresses whatever name led to them. Config: a hook's `allowed_hosts` plus the
	// Runner's global allowlist.
	Allow []string
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver Resolver
	// Dial connects to an address the guard has already checked ("ip:port", never a
	// name); nil means a net.Dialer that checks the address once more in its Control
	// hook. Tests give a dialer that refuses to connect, to prove a destination would
	// have been dialled without touching the network.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// Guard is the SSRF guard. It is safe for concurrent use and must not be modified after New.
type Guard struct {
	hosts    map[string]bool
	prefixes []netip.Prefix
	resolver Resolver
	dial     func(ctx context.Context, network, address string) (net.Conn, error)
	ssrf     *ssrf.Guardian
}

// New builds a Guard. An Allow entry that is neither a host name, an IP address nor a CIDR
// prefix is an error naming it.
func New(opts Options) (*Guard, error) {
	g := &Guard{
		hosts:    map[string]bool{},
		resolver: opts.Resolver,
		dial:     opts.Dial,
		// Ports are not the guard's business: webhook receivers listen anywhere; the
		// addresses are what keeps a hook out of the internal network.
		ssrf: ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork()),
	}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	for _, a := range opts.Allow {
		if err := g.allow(a); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func (g *Guard) allow(entry string) error {
	e, ok := hostspec.Parse(entry)
	switch {
	case !ok:
		return fmt.Errorf("allowed host %q is not a host name, IP address or CIDR prefix", entry)
	case e.Host != "":
		g.hosts[e.Host] = true
	case e.Prefix.Bits() == e.Prefix.Addr().BitLen():
		a := norm(e.Prefix.Addr())
		g.prefixes = append(g.prefixes, netip.PrefixFrom(a, a.BitLen()))
	default:
		g.prefixes = append(g.prefixes, normPrefix(e.Prefix.Masked()))
	}
	return nil
}

// Check decides whether a hook may connect to ip, reached through the host name host (as
// written in the URL; an IP literal is its own host). It returns nil or a *BlockedError.
// It is pure: no I/O. The rules, in order:
//
//  1. An invalid address is refused.
//  2. The zone is dropped and an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is read as the
//     IPv4 address it carries, so a mapped form is judged, and allowed, exactly as the
//     plain address.
//  3. A host or an address on the allowlist is allowed.
//  4. Otherwise the address is refused when it is in one of the IANA IPv4 special-purpose
//     ranges (code.dny.dev/ssrf: loopback, RFC 1918, CGNAT, link-local, unspecified,
//     multicast, broadcast, documentation, benchmarking, reserved) or, for IPv6, outside
//     the global unicast range 2000::/3 (loopback ::1, unspecified ::, RFC 4193 fc00::/7,
//     link-local fe80::/10, multicast, IPv4-compatible ::/96, NAT64 64:ff9b::/96) or in a
//     special-purpose range inside it (6to4 2002::/16, Teredo, documentation).
func (g *Guard) Check(host string, ip netip.Addr) error {
	host = hostspec.Canon(host)
	if !ip.IsValid() {
		return &BlockedError{Host: host, Reason: "no valid address"}
	}
	ip = norm(ip)
	if g.hosts[host] {
		return nil
	}
	for _, p := range g.prefixes {
		if p.Contains(ip) {
			return nil
		}
	}
	if err := g.ssrf.SafeAddr(ip); err != nil {
		return &BlockedError{Host: host, Addr: ip, Reason: describe(ip)}
	}
	return nil
}

// norm drops the zone and unmaps IPv4-mapped IPv6 addresses.
func norm(a netip.Addr) netip.Addr { return a.WithZone("").Unmap() }

// normPrefix turns an IPv4-mapped prefix (::ffff:10.0.0.0/104) into its IPv4 prefix.
func normPrefix(p netip.Prefix) netip.Prefix {
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p
}

// describe names the kind of a refused address, for the error message.
func describe(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "loopback address"
	case a.IsUnspecified():
		return "unspecified address"
	case a == netip.AddrFrom4([4]byte{169, 254, 169, 254}):
		return "link-local address (cloud metadata endpoint)"
	case a.IsLinkLocalUnicast():
		return "link-local address"
	case a.IsPrivate():
		return "private address"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast address"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast address"
	case a.Is4() && netip.MustParsePrefix("100.64.0.0/10").Contains(a):
		return "shared (CGNAT) address"
	case a.Is6() && netip.MustParsePrefix("64:ff9b::/96").Contains(a):
		return "NAT64 address"
	case a.Is6() && netip.MustParsePrefix("::/96").Contains(a):
		return "IPv4-compatible IPv6 address"
	}
	return "special-purpose address"
}
