package config

import (
	"testing"

	"github.com/hookcore/hookcore/internal/netguard"
)

// TestValidAllowedHostAgreesWithGuard checks that config accepts exactly the allowlist
// entries the SSRF guard loads, so that a file `hookcore check` passes never fails when the
// Runner builds its http hooks.
func TestValidAllowedHostAgreesWithGuard(t *testing.T) {
	t.Parallel()
	for _, e := range []string{
		"127.0.0.1", "::1", "[::1]", "10.0.0.0/8", "fd00::/8", "fe80::1%eth0", "0.0.0.0",
		"localhost", "hooks.internal.example", "Hooks.Example.COM.", "ok_host-1", " spaced.example ",
		"", " ", ".", "..", "a..b", "bad host", "*.example.com", "a:80", "127.0.0.1:80",
		"http://x", "x/y", "10.0.0.0/33", "[::1", "::1]", "é.example", "a.b.c.d.e",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.example", // 64-byte label
	} {
		_, err := netguard.New(netguard.Options{Allow: []string{e}})
		if got, want := validHost(e), err == nil; got != want {
			t.Errorf("validHost(%q) = %v, but netguard.New says %v (%v)", e, got, want, err)
		}
	}
}

func FuzzValidAllowedHost(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "[::1]", "10.0.0.0/8", "a.example.", "bad host", "*.x", "a:80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, e string) {
		_, err := netguard.New(netguard.Options{Allow: []string{e}})
		if got, want := validHost(e), err == nil; got != want {
			t.Errorf("validHost(%q) = %v, but netguard.New says %v (%v)", e, got, want, err)
		}
	})
}
