package install

import (
	"strings"
	"testing"
)

// TestCheckServer: a --server value is an absolute http(s) URL with a host, without user
// info, query, fragment or path (but "/"; red team round 65: serve answers under no prefix), and without characters a shell would read (new-user trial, stop
// 22: "notaurl" was written as the URL of Claude Code's http hooks, which fail open);
// loopback is reported for 127.0.0.0/8, ::1 and localhost.
func TestCheckServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in       string
		loopback bool
		err      string // a part of the error; "" for none
	}{
		{in: "http://127.0.0.1:7878", loopback: true},
		{in: "http://127.0.0.1:7878/", loopback: true},
		{in: "https://127.3.4.5", loopback: true},
		{in: "http://[::1]:7878", loopback: true},
		{in: "http://localhost:7878/prefix", err: `a path ("/prefix") has no place in it`},
		{in: "http://127.0.0.1:7878/a%20b", err: `a path ("/a%20b") has no place in it`},
		{in: "http://127.0.0.1:7878//", err: "a path"},
		{in: "http://127.0.0.1:7878/hook", err: "a path"},
		{in: "HTTP://LOCALHOST:7878", loopback: true},
		{in: "http://192.168.1.20:7878"},
		{in: "https://hooks.example.com"},
		{in: "https://hooks.example.com/team%2Fa", err: "a path"},
		{in: "notaurl", err: "not an absolute http:// or https:// URL"},
		{in: "127.0.0.1:7878", err: "not an absolute http:// or https:// URL"},
		{in: "/hook", err: "not an absolute http:// or https:// URL"},
		{in: "ftp://127.0.0.1", err: "not an absolute http:// or https:// URL"},
		{in: "http:127.0.0.1", err: "not an absolute"},
		{in: "http://", err: "no host"},
		{in: "http://:7878", err: "no host"},
		{in: "http:///hook", err: "no host"},
		{in: "http://127.0.0.1:0", err: "port 0 is out of range"},
		{in: "http://127.0.0.1:70000", err: "port 70000 is out of range"},
		{in: "http://127.0.0.1:x", err: "invalid port"},
		{in: "http://127.0.0.1:7878?x=1", err: "a query, fragment or user info"},
		{in: "http://127.0.0.1:7878/#top", err: "a query, fragment or user info"},
		{in: "http://me:pw@127.0.0.1:7878", err: "a query, fragment or user info"},
		{in: "http://127.0.0.1:7878/;rm", err: `";" is not a character`},
		{in: "http://127.0.0.1:7878 --token x", err: `" " is not a character`},
		{in: "http://127.0.0.1:7878/$HOME", err: `"$" is not a character`},
		{in: "http://127.0.0.1/%zz", err: "invalid URL escape"},
		{in: "", err: "not an absolute"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			loopback, err := CheckServer(tc.in)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want one saying %q", err, tc.err)
			case tc.err == "" && loopback != tc.loopback:
				t.Errorf("loopback = %v, want %v", loopback, tc.loopback)
			}
		})
	}
}

// TestInstallRefusesBadServer: every agent's install refuses a --server that is no URL,
// Claude Code's (an http hook's url) and the others' (`hookcore hook AGENT --server URL`).
func TestInstallRefusesBadServer(t *testing.T) {
	t.Parallel()
	for _, a := range Agents() {
		_, err := Install(Options{Agent: a, ProjectDir: t.TempDir(), Home: t.TempDir(), Server: "notaurl"})
		if err == nil || !strings.Contains(err.Error(), `--server "notaurl": not an absolute http:// or https:// URL`) {
			t.Errorf("%s: err = %v", a, err)
		}
	}
}
