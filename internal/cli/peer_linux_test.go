//go:build !hookcore_lean

package cli

import (
	"net"
	"os"
	"strconv"
	"testing"
)

// TestPeerUIDBothEnds: on Linux the real /proc/net/tcp lookup finds this user from both ends
// of a loopback connection within this process — serve's accepted socket seen from the
// client (also while it waits in the accept queue) and the client's seen from serve — and
// over IPv6 and to a dual-stack listener (listed in tcp6 as ::ffff:127.0.0.1) where the
// host has them.
func TestPeerUIDBothEnds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ listen, dial string }{
		{"127.0.0.1:0", "127.0.0.1"},
		{"[::1]:0", "::1"},
		{":0", "127.0.0.1"}, // dual stack
	} {
		t.Run(tt.listen+"_"+tt.dial, func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", tt.listen)
			if err != nil {
				t.Skip("no such listener here:", err)
			}
			defer ln.Close()
			c, err := net.Dial("tcp", net.JoinHostPort(tt.dial, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			e := testEnv(t, t.TempDir(), nil)
			// Not accepted yet: the socket in the accept queue is the listener's.
			if uid, err := e.peerUID(c); err != nil || uid != os.Getuid() {
				t.Errorf("client side, before accept: uid %d, %v; want %d", uid, err, os.Getuid())
			}
			s, err := ln.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !e.sameUser(s) {
				t.Error("serve side: a connection from this process was not recognised as this user")
			}
			if !e.sameUser(c) {
				t.Error("client side: serve's socket in this process was not recognised as this user")
			}
		})
	}
}
