//go:build !hookcore_lean

package cli

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// The proof of the token. `hook --server` sends the hook input (and a token) only to a
// process it knows is the user's serve. On Linux it asks the kernel whose socket answered
// (peerUID); where it cannot tell (another system, a /proc that hides the socket), it asks
// the process to prove that it holds serve's token instead: it sends a fresh random nonce
// (GET /v1/proof?nonce=HEX) and serve answers
//
//	hex(HMAC-SHA256(token, "hookcore serve proof v1\x00" + nonce + "\x00" + address))
//
// where address is the address:port the connection reached (serve's local address; the
// client's remote one), so that a process on serve's port cannot pass off a proof it asked
// a real serve on another address for. Only the user (and root) can read serve.token, and
// an HMAC of a nonce tells nothing of its key; serve answers a proof request without the
// token, after the browser and Host checks every request gets.

// proofNonceLen is the nonce's length in bytes (hex-encoded on the wire).
const proofNonceLen = 32

// serveProof is the proof for nonce (hex) on a connection that reached addr.
func serveProof(token, nonce string, addr net.Addr) (string, error) {
	ap, err := proofAddr(addr)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, []byte(token))
	fmt.Fprintf(m, "hookcore serve proof v1\x00%s\x00%s", nonce, ap)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// proofAddr is a TCP address as the proof names it: the IP unmapped (a dual-stack
// listener sees 127.0.0.1 as ::ffff:127.0.0.1), without a zone.
func proofAddr(a net.Addr) (netip.AddrPort, error) {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("%v is not a TCP address", a)
	}
	ap := t.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port()), nil
}

// proofAnswer is serve's answer to GET /v1/proof.
type proofAnswer struct {
	Proof string `json:"proof"`
}

// handleProof answers GET /v1/proof?nonce=HEX with the proof for the connection's local
// address (400 for a nonce that is not proofNonceLen bytes of hex).
func (s *server) handleProof(w http.ResponseWriter, req *http.Request) {
	nonce := req.URL.Query().Get("nonce")
	if b, err := hex.DecodeString(nonce); err != nil || len(b) != proofNonceLen {
		http.Error(w, fmt.Sprintf("nonce: want %d bytes in hex", proofNonceLen), http.StatusBadRequest)
		return
	}
	local, _ := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	p, err := serveProof(s.token, nonce, local)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(proofAnswer{p}) //nolint:errcheck // the client went away
}

// errNoProof is proveServe's error when the process does not prove it holds the token.
var errNoProof = errors.New("it did not prove that it holds serve's token")

// proveServe asks the process at the other end of c to prove that it holds token (see
// above), over c itself, before anything else is written to it; the connection is then
// left at the start of the next request. The error is errNoProof (wrapped) for an answer
// that is not the proof, else what went wrong on the connection; ctx's deadline bounds
// the exchange.
func proveServe(ctx context.Context, c net.Conn, token string) error {
	if token == "" {
		return errors.New("no token to ask it for (serve.token is not in the state directory, and no --token)")
	}
	raw := make([]byte, proofNonceLen)
	rand.Read(raw) //nolint:errcheck // crypto/rand.Read does not fail
	nonce := hex.EncodeToString(raw)
	want, err := serveProof(token, nonce, c.RemoteAddr())
	if err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok {
		c.SetDeadline(d) //nolint:errcheck // a closed connection fails the write below
		defer c.SetDeadline(time.Time{})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+c.RemoteAddr().String()+"/v1/proof?nonce="+nonce, nil)
	if err != nil {
		return err
	}
	if err := req.Write(c); err != nil {
		return err
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	if err != nil {
		return err
	}
	var a proofAnswer
	switch {
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%w (it answered %s)", errNoProof, resp.Status)
	case json.Unmarshal(body, &a) != nil || !hmac.Equal([]byte(a.Proof), []byte(want)):
		return errNoProof
	case r.Buffered() > 0: // bytes past the answer would be read as the next one's
		return fmt.Errorf("%w (it sent more than the proof)", errNoProof)
	}
	return nil
}
