//go:build !hookcore_lean

package cli

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// peerUID returns the uid that owns the socket at the other end of a TCP connection whose
// two ends are on this host, from either side: on serve's side the client's socket, on the
// client's side the socket serve accepted (a socket still in the listener's accept queue
// has the listener's uid). It finds that socket in /proc/net/tcp (or tcp6) by its address
// pair: the peer's local address is our remote one, and the other way round. The error is
// errPeerUnknown when no such socket is listed (a peer on another host, or one gone), else
// why /proc could not be read.
func peerUID(c net.Conn) (int, error) {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return 0, errPeerUnknown
	}
	file, peerLocal, peerRemote := "/proc/net/tcp", procAddr(remote), procAddr(local)
	if remote.IP.To4() == nil {
		file = "/proc/net/tcp6"
	}
	uid, err := procUID(file, peerLocal, peerRemote)
	if err == errPeerUnknown && file == "/proc/net/tcp" {
		// An IPv4 end of a dual-stack socket is listed in tcp6 as ::ffff:a.b.c.d.
		uid, err = procUID("/proc/net/tcp6", procAddr6(remote), procAddr6(local))
	}
	return uid, err
}

// procAddr writes an address as /proc/net/tcp does: the IP's bytes in host order (little
// endian, per 32-bit word), hex, then the port.
func procAddr(a *net.TCPAddr) string {
	if ip4 := a.IP.To4(); ip4 != nil {
		return fmt.Sprintf("%s:%04X", strings.ToUpper(hex.EncodeToString([]byte{ip4[3], ip4[2], ip4[1], ip4[0]})), a.Port)
	}
	return procAddr6(a)
}

func procAddr6(a *net.TCPAddr) string {
	ip := a.IP.To16()
	var b []byte
	for w := 0; w < 16; w += 4 {
		b = append(b, ip[w+3], ip[w+2], ip[w+1], ip[w])
	}
	return fmt.Sprintf("%s:%04X", strings.ToUpper(hex.EncodeToString(b)), a.Port)
}

// procUID is the uid of the socket FILE lists with the local and remote addresses given,
// skipping TIME_WAIT entries (state 06), whose uid is always 0.
func procUID(file, local, remote string) (int, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 7 && fields[1] == local && fields[2] == remote && fields[3] != "06" {
			uid, err := strconv.Atoi(fields[7])
			if err != nil {
				return 0, fmt.Errorf("%s: uid %q: %w", file, fields[7], err)
			}
			return uid, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	return 0, errPeerUnknown
}
