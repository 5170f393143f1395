//go:build !hookcore_lean

package cli

import (
	"errors"
	"net"
	"os"
	"time"
)

// errPeerUnknown is peerUID's answer for a connection whose peer is no socket of this host
// that it can see (a peer on another host, or a socket already gone).
var errPeerUnknown = errors.New("the peer's socket is not listed in /proc/net/tcp")

// transportOptions are how `hookcore serve` and `hook --server` check each other's process
// and how long the client waits. Its zero value is the default; tests set the fields to play
// another user or a stalled server without one.
type transportOptions struct {
	// serverTimeout bounds one `hook --server` exchange, from dialling to the answer's last
	// byte. Zero is defaultServerTimeout.
	serverTimeout time.Duration
	// peerUID tells the uid owning the other end of a TCP connection on this host. Nil is
	// this platform's lookup (peerUID: /proc/net/tcp on Linux, an error elsewhere).
	peerUID func(net.Conn) (int, error)
}

// peerUID is the uid owning the other end of c (see transportOptions.peerUID).
func (e *env) peerUID(c net.Conn) (int, error) {
	if e.transport.peerUID != nil {
		return e.transport.peerUID(c)
	}
	return peerUID(c)
}

// sameUser reports whether the peer of a loopback TCP connection is a socket of the user
// running this process. Anything it cannot tell is false.
func (e *env) sameUser(c net.Conn) bool {
	remote, ok := c.RemoteAddr().(*net.TCPAddr)
	if !ok || !remote.IP.IsLoopback() {
		return false
	}
	uid, err := e.peerUID(c)
	return err == nil && uid == os.Getuid()
}
