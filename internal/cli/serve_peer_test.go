//go:build !hookcore_lean

package cli

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeLooksUpPeerLazily (red team round 33): serve read all of /proc/net/tcp for every
// connection it accepted (50 ms with 16k sockets), so a local user's flood of connections
// that never send a request filled its accept queue. It now looks the peer up only for a
// request without the valid token, once per connection: idle connections and requests with
// the token cost no lookup.
func TestServeLooksUpPeerLazily(t *testing.T) {
	t.Parallel()
	e := testEnv(t, t.TempDir(), nil)
	var lookups atomic.Int64
	e.transport.peerUID = func(net.Conn) (int, error) {
		lookups.Add(1)
		return os.Getuid(), nil
	}
	srv := &server{e: e, token: "secret"}
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = srv.httpServer()
	ts.Config.Handler = srv.auth(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "in") }))
	ts.Start()
	defer ts.Close()

	// Idle connections, and one request each with the token, which serve has answered
	// (so it accepted every connection opened before).
	var idle []net.Conn
	for range 20 {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	get := func(header string) int {
		t.Helper()
		fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", header)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("Authorization: Bearer secret\r\n"); code != 200 {
		t.Fatalf("with the token: %d", code)
	}
	if n := lookups.Load(); n != 0 {
		t.Errorf("%d peer lookups for %d idle connections and a request with the token, want 0", n, len(idle))
	}
	// Without the token: one lookup for the connection, however many requests it carries.
	for i := range 3 {
		if code := get(""); code != 200 {
			t.Fatalf("request %d without the token, same user: %d", i, code)
		}
	}
	if n := lookups.Load(); n != 1 {
		t.Errorf("%d peer lookups for three requests without the token on one connection, want 1", n)
	}
}

// TestServeTimeouts: serve closes a connection that holds a slot for nothing — headers or a
// body that never come, an idle kept-alive connection.
func TestServeTimeouts(t *testing.T) {
	t.Parallel()
	hs := (&server{e: testEnv(t, t.TempDir(), nil)}).httpServer()
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": hs.ReadHeaderTimeout, "ReadTimeout": hs.ReadTimeout, "IdleTimeout": hs.IdleTimeout} {
		if d <= 0 {
			t.Errorf("%s is %s, want a bound", name, d)
		}
	}
	if hs.ConnContext == nil {
		t.Error("no ConnContext: requests carry no peer")
	}
}
