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

// sameUser reports whether the peer of a loopback TCP connection is a socket of the user
// running this process: it finds the peer's socket in /proc/net/tcp (or tcp6) by its
// address pair and compares the owner's uid. Anything it cannot tell is false (the token is
// then required).
func sameUser(c net.Conn) bool {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || !remote.IP.IsLoopback() {
		return false
	}
	// The peer's socket has our remote address as its local one, and the other way round.
	file, peerLocal, peerRemote := "/proc/net/tcp", procAddr(remote), procAddr(local)
	if remote.IP.To4() == nil {
		file = "/proc/net/tcp6"
	}
	uid, ok := procUID(file, peerLocal, peerRemote)
	if !ok && file == "/proc/net/tcp" {
		// An IPv4 peer of a dual-stack socket is listed in tcp6 as ::ffff:a.b.c.d.
		uid, ok = procUID("/proc/net/tcp6", procAddr6(remote), procAddr6(local))
	}
	return ok && uid == os.Getuid()
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

func procUID(file, local, remote string) (int, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 7 && fields[1] == local && fields[2] == remote {
			uid, err := strconv.Atoi(fields[7])
			return uid, err == nil
		}
	}
	return 0, false
}
