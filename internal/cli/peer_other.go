//go:build !linux && !hookcore_lean

package cli

import (
	"errors"
	"net"
)

// peerUID cannot tell whose socket a connection's peer is on this platform: serve then
// needs the token on every request, and `hook --server` sends nothing over loopback to a
// process that does not prove it holds serve's token (proveServe).
func peerUID(net.Conn) (int, error) {
	return 0, errors.New("this system does not tell whose process a loopback connection reaches (only Linux's /proc/net/tcp does, for hookcore)")
}
