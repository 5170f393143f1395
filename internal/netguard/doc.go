// Package netguard is the SSRF guard of the http executor (DESIGN.md section 6, "http"; the
// codebot seed's httpExec: check the scheme, resolve first, refuse private addresses, defeat
// DNS rebinding).
//
// A Guard decides, for a host name and one of its IP addresses, whether a hook may connect.
// The decision is taken at dial time, after DNS resolution, on the very address that is then
// dialled: a name that resolves to a public address when checked and to 127.0.0.1 a moment
// later (DNS rebinding) cannot slip past, because nothing is resolved twice. Every redirect
// hop goes through the same dialer and is checked the same way.
//
// Refused by default (see Guard.Check): loopback, RFC 1918 and RFC 4193 private addresses,
// link-local addresses (169.254.0.0/16 with the cloud metadata address 169.254.169.254,
// fe80::/10), CGNAT 100.64.0.0/10, unspecified, multicast, broadcast and the other IANA
// special-purpose ranges, and the IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
// NAT64 (64:ff9b::/96) and 6to4 forms of them: the IPv4 ranges come from
// code.dny.dev/ssrf, and every IPv6 address outside the global unicast range 2000::/3 is
// refused. Host names spelled as legacy numeric IPv4 (2130706433, 0x7f.1, 017700000001) are
// read the way inet_aton reads them and checked as the address they denote.
//
// An allowlist (Options.Allow: host names, IP addresses or CIDR prefixes) opens specific
// destinations, such as an internal webhook receiver or, in tests, an httptest server on
// 127.0.0.1. Public addresses need no allowlist entry.
package netguard
