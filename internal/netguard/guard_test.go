package netguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// mapResolver answers DNS questions from a map: no real resolver is asked.
type mapResolver map[string][]string

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := m[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

// errWouldDial proves that the guard let a destination through, without touching the network.
type errWouldDial struct{ addr string }

func (e errWouldDial) Error() string { return "test dialer: would dial " + e.addr }

// loopbackOnly dials loopback addresses for real (the httptest servers) and refuses every
// other address with errWouldDial.
func loopbackOnly(ctx context.Context, network, address string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return nil, fmt.Errorf("test dialer: %v", err)
	}
	if !ap.Addr().Unmap().IsLoopback() {
		return nil, errWouldDial{address}
	}
	var d net.Dialer
	return d.DialContext(ctx, network, address)
}

var testDNS = mapResolver{
	"localhost":    {"127.0.0.1", "::1"},
	"rebind.test":  {"127.0.0.1"},
	"private.test": {"10.1.2.3"},
	"metadata.test": {
		"169.254.169.254",
	},
	"mixed.test":   {"93.184.215.14", "10.0.0.5"},
	"public.test":  {"93.184.215.14"},
	"public6.test": {"2606:4700::6810:84e5"},
	"hooks.test":   {"127.0.0.1"},
}

func newGuard(t *testing.T, allow ...string) *Guard {
	t.Helper()
	g, err := New(Options{Allow: allow, Resolver: testDNS, Dial: loopbackOnly})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// fetch is what the http executor does: check the URL, then GET it with the guarded client.
func fetch(t *testing.T, g *Guard, rawURL string) error {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	if err := g.CheckURL(u); err != nil {
		return err
	}
	c := g.Client()
	defer c.CloseIdleConnections()
	resp, err := c.Get(rawURL)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// servers starts the allowlisted loopback receiver and its redirect chains.
func servers(t *testing.T) (srv *httptest.Server, port string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	mux.HandleFunc("/hop1", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop2?to="+url.QueryEscape(r.URL.Query().Get("to")), http.StatusFound)
	})
	mux.HandleFunc("/hop2", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return srv, u.Port()
}

// TestDestinations is the SSRF table of issue 4: every form of an internal destination is
// refused without an allowlist, and only the allowlisted receiver is reached with one.
func TestDestinations(t *testing.T) {
	t.Parallel()
	srv, port := servers(t)
	chain := func(to string) string { return srv.URL + "/hop1?to=" + url.QueryEscape(to) }
	type want int
	const (
		blocked   want = iota // refused by the guard
		wouldDial             // allowed: the refusing test dialer was reached
		reached               // allowed: the loopback receiver answered 200
	)
	tests := []struct {
		name       string
		url        string
		noAllow    want // without an allowlist
		allowLocal want // with Allow: [127.0.0.1]
	}{
		{"loopback", "http://127.0.0.1:" + port + "/ok", blocked, reached},
		{"loopback other", "http://127.1.2.3/", blocked, blocked},
		{"localhost name", "http://localhost:" + port + "/ok", blocked, blocked}, // ::1 is not allowlisted
		{"ipv6 loopback", "http://[::1]/", blocked, blocked},
		{"unspecified v4", "http://0.0.0.0/", blocked, blocked},
		{"unspecified v6", "http://[::]/", blocked, blocked},
		{"rfc1918 10", "http://10.0.0.1/", blocked, blocked},
		{"rfc1918 172", "http://172.16.5.4/", blocked, blocked},
		{"rfc1918 192", "http://192.168.1.1/", blocked, blocked},
		{"rfc4193 ula", "http://[fd00::1]/", blocked, blocked},
		{"metadata", "http://169.254.169.254/latest/meta-data/", blocked, blocked},
		{"link-local v6", "http://[fe80::1]/", blocked, blocked},
		{"link-local v6 zone", "http://[fe80::1%25eth0]/", blocked, blocked},
		{"cgnat", "http://100.64.0.1/", blocked, blocked},
		{"multicast v4", "http://224.0.0.1/", blocked, blocked},
		{"broadcast", "http://255.255.255.255/", blocked, blocked},
		{"multicast v6", "http://[ff02::1]/", blocked, blocked},
		{"mapped loopback dotted", "http://[::ffff:127.0.0.1]:" + port + "/ok", blocked, reached},
		{"mapped loopback hex", "http://[::ffff:7f00:1]:" + port + "/ok", blocked, reached},
		{"mapped metadata", "http://[::ffff:169.254.169.254]/", blocked, blocked},
		{"mapped private", "http://[::ffff:10.0.0.1]/", blocked, blocked},
		{"ipv4-compatible loopback", "http://[::127.0.0.1]/", blocked, blocked},
		{"nat64 loopback", "http://[64:ff9b::7f00:1]/", blocked, blocked},
		{"6to4 loopback", "http://[2002:7f00:1::]/", blocked, blocked},
		{"decimal", "http://2130706433:" + port + "/ok", blocked, reached},
		{"hex short", "http://0x7f.1:" + port + "/ok", blocked, reached},
		{"octal", "http://017700000001:" + port + "/ok", blocked, reached},
		{"hex whole", "http://0x7f000001:" + port + "/ok", blocked, reached},
		{"short dotted", "http://127.1:" + port + "/ok", blocked, reached},
		{"octal dotted", "http://0177.0.0.1:" + port + "/ok", blocked, reached},
		{"decimal private", "http://167772161/", blocked, blocked}, // 10.0.0.1
		{"malformed numeric", "http://08/", blocked, blocked},
		{"name to loopback", "http://rebind.test:" + port + "/ok", blocked, reached},
		{"name to private", "http://private.test/", blocked, blocked},
		{"name to metadata", "http://metadata.test/", blocked, blocked},
		{"name to public and private", "http://mixed.test/", blocked, blocked},
		{"scheme ftp", "ftp://public.test/", blocked, blocked},
		{"scheme file", "file:///etc/passwd", blocked, blocked},
		{"scheme gopher", "gopher://127.0.0.1:70/", blocked, blocked},
		{"redirect to private", chain("http://10.0.0.1/"), blocked, blocked},
		{"redirect to metadata", chain("http://169.254.169.254/latest/meta-data/"), blocked, blocked},
		{"redirect to mapped metadata", chain("http://[::ffff:a9fe:a9fe]/"), blocked, blocked},
		{"redirect to name to private", chain("http://private.test/"), blocked, blocked},
		{"redirect to file", chain("file:///etc/passwd"), blocked, blocked},
		{"redirect to allowed", chain(srv.URL + "/ok"), blocked, reached},
		{"redirect to public", chain("http://public.test/"), blocked, wouldDial},
		{"public name", "http://public.test/", wouldDial, wouldDial},
		{"public v4", "http://93.184.215.14/", wouldDial, wouldDial},
		{"public v6 name", "https://public6.test/", wouldDial, wouldDial},
		{"public mapped", "http://[::ffff:93.184.215.14]/", wouldDial, wouldDial},
	}
	if len(tests) < 25 {
		t.Fatalf("the table must hold at least 25 destinations, has %d", len(tests))
	}
	for _, allowlisted := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/allow=%v", tt.name, allowlisted), func(t *testing.T) {
				t.Parallel()
				w := tt.noAllow
				g := newGuard(t)
				if allowlisted {
					w = tt.allowLocal
					g = newGuard(t, "127.0.0.1")
				}
				err := fetch(t, g, tt.url)
				var dial errWouldDial
				switch {
				case w == blocked && !errors.Is(err, ErrBlocked):
					t.Errorf("fetch(%s) = %v, want an ssrf block", tt.url, err)
				case w == wouldDial && !errors.As(err, &dial):
					t.Errorf("fetch(%s) = %v, want the test dialer to be reached", tt.url, err)
				case w == reached && err != nil:
					t.Errorf("fetch(%s) = %v, want it to reach the receiver", tt.url, err)
				}
			})
		}
	}
}

func TestAllowHostName(t *testing.T) {
	t.Parallel()
	_, port := servers(t)
	g := newGuard(t, "Hooks.Test.")
	if err := fetch(t, g, "http://hooks.test:"+port+"/ok"); err != nil {
		t.Errorf("allowlisted name: %v", err)
	}
	// The name is open, not the address: reaching it by another name or literally is not.
	for _, u := range []string{"http://127.0.0.1:" + port + "/ok", "http://rebind.test:" + port + "/ok"} {
		if err := fetch(t, g, u); !errors.Is(err, ErrBlocked) {
			t.Errorf("fetch(%s) = %v, want an ssrf block", u, err)
		}
	}
}

func TestRedirectLimit(t *testing.T) {
	t.Parallel()
	srv, _ := servers(t)
	err := fetch(t, newGuard(t, "127.0.0.1"), srv.URL+"/loop")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("redirect loop: %v", err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	g := newGuard(t, "10.1.0.0/16", "::ffff:192.168.7.0/120", "fd12::1", "intranet.example")
	tests := []struct {
		host, ip string
		ok       bool
		reason   string
	}{
		{"x", "127.0.0.1", false, "loopback address"},
		{"x", "::1", false, "loopback address"},
		{"x", "169.254.169.254", false, "link-local address (cloud metadata endpoint)"},
		{"x", "fe80::1", false, "link-local address"},
		{"x", "10.2.0.1", false, "private address"},
		{"x", "fd00::5", false, "private address"},
		{"x", "100.100.100.200", false, "shared (CGNAT) address"},
		{"x", "0.0.0.0", false, "unspecified address"},
		{"x", "239.1.1.1", false, "multicast address"},
		{"x", "255.255.255.255", false, "broadcast address"},
		{"x", "64:ff9b::a00:1", false, "NAT64 address"},
		{"x", "::a00:1", false, "IPv4-compatible IPv6 address"},
		{"x", "192.0.2.1", false, "special-purpose address"},
		{"x", "::ffff:127.0.0.1", false, "loopback address"},
		{"x", "10.1.200.3", true, ""},      // allowlisted prefix
		{"x", "::ffff:10.1.0.1", true, ""}, // mapped form of an allowlisted address
		{"x", "192.168.7.9", true, ""},     // mapped prefix entry opens the IPv4 prefix
		{"x", "fd12::1", true, ""},         // allowlisted address
		{"x", "fd12::2", false, "private address"},
		{"INTRANET.example.", "10.9.9.9", true, ""}, // allowlisted name
		{"x", "8.8.8.8", true, ""},
		{"x", "2606:4700::1", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.host+"/"+tt.ip, func(t *testing.T) {
			t.Parallel()
			err := g.Check(tt.host, netip.MustParseAddr(tt.ip))
			if tt.ok {
				if err != nil {
					t.Errorf("Check = %v, want allowed", err)
				}
				return
			}
			var be *BlockedError
			if !errors.As(err, &be) || !errors.Is(err, ErrBlocked) {
				t.Fatalf("Check = %v, want a *BlockedError", err)
			}
			if be.Reason != tt.reason {
				t.Errorf("reason = %q, want %q", be.Reason, tt.reason)
			}
		})
	}
	if err := g.Check("x", netip.Addr{}); !errors.Is(err, ErrBlocked) {
		t.Errorf("invalid address: %v", err)
	}
}

func TestNewBadAllow(t *testing.T) {
	t.Parallel()
	for _, entry := range []string{"", "http://x.example", "host:8080", "10.0.0.0/33", "a b"} {
		if _, err := New(Options{Allow: []string{entry}}); err == nil {
			t.Errorf("New(Allow: %q) = nil error", entry)
		}
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host        string
		want        string
		numeric, ok bool
	}{
		{"2130706433", "127.0.0.1", true, true},
		{"0x7f.1", "127.0.0.1", true, true},
		{"017700000001", "127.0.0.1", true, true},
		{"0x7f000001", "127.0.0.1", true, true},
		{"127.1", "127.0.0.1", true, true},
		{"127.0.1", "127.0.0.1", true, true},
		{"0177.0.0.01", "127.0.0.1", true, true},
		{"0X7F.0.0.0x1", "127.0.0.1", true, true},
		{"10.0.0.1", "10.0.0.1", true, true},
		{"0", "0.0.0.0", true, true},
		{"0x", "0.0.0.0", true, true},
		{"4294967295", "255.255.255.255", true, true},
		{"4294967296", "", true, false},
		{"256.1", "", true, false},
		{"1.2.3.256", "", true, false},
		{"1.2.65536", "", true, false},
		{"08", "", true, false},
		{"1.2.3.4.5", "", true, false},
		{"99999999999999999999999", "", true, false},
		{"example.com", "", false, false},
		{"1.2.3.x", "", false, false},
		{"0xg", "", false, false},
		{"1..2", "", false, false},
		{"", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			a, numeric, ok := ParseLegacyIPv4(tt.host)
			got := ""
			if ok {
				got = a.String()
			}
			if got != tt.want || numeric != tt.numeric || ok != tt.ok {
				t.Errorf("ParseLegacyIPv4(%q) = %s, %v, %v; want %s, %v, %v", tt.host, got, numeric, ok, tt.want, tt.numeric, tt.ok)
			}
		})
	}
}

func FuzzParseLegacyIPv4(f *testing.F) {
	for _, s := range []string{"2130706433", "0x7f.1", "017700000001", "127.1", "1.2.3.4", "08", "0x", "1.2.3.4.5", "a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		a, numeric, ok := ParseLegacyIPv4(host)
		if ok && (!numeric || !a.Is4()) {
			t.Fatalf("ParseLegacyIPv4(%q) = %v, %v, %v", host, a, numeric, ok)
		}
		// A valid dotted quad reads as itself.
		if p, err := netip.ParseAddr(host); err == nil && p.Is4() && (!ok || a != p) {
			t.Fatalf("ParseLegacyIPv4(%q) = %v, %v; want %v", host, a, ok, p)
		}
	})
}

// flipResolver answers a public address the first time and loopback afterwards: a DNS
// rebinding attack. The guard must dial exactly the address it checked.
type flipResolver struct{ calls chan struct{} }

func (f flipResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	select {
	case f.calls <- struct{}{}:
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	default:
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
}

func TestRebindingDialsTheCheckedAddress(t *testing.T) {
	t.Parallel()
	var dialled []string
	f := flipResolver{calls: make(chan struct{}, 1)}
	g, err := New(Options{Resolver: f, Dial: func(_ context.Context, _, address string) (net.Conn, error) {
		dialled = append(dialled, address)
		return nil, errWouldDial{address}
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.DialContext(context.Background(), "tcp", "rebind.example:80")
	var wd errWouldDial
	if !errors.As(err, &wd) || len(dialled) != 1 || dialled[0] != "93.184.215.14:80" {
		t.Fatalf("first dial: err %v, dialled %v", err, dialled)
	}
	// The second answer points at loopback: refused, nothing dialled.
	if _, err := g.DialContext(context.Background(), "tcp", "rebind.example:80"); !errors.Is(err, ErrBlocked) || len(dialled) != 1 {
		t.Fatalf("second dial: err %v, dialled %v", err, dialled)
	}
}
