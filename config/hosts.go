package config

import (
	"net/netip"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// checkAllowedHosts reports each `allowed_hosts` entry of an http action that the SSRF
// guard would refuse to load, at the entry's position: the same rule as
// internal/netguard.New (which config may not import), so that `hookcore check` reports it
// with every other problem instead of the Runner failing at build time.
func (d *decoder) checkAllowedHosts(r *rawHook) {
	p, ok := r.at["action.allowed_hosts"]
	if !ok || p.val == nil {
		return
	}
	var nodes []ast.Node // the scalar entries, as scalarList decoded them
	if seq, isSeq := p.val.(*ast.SequenceNode); isSeq {
		for _, e := range seq.Values {
			switch d.resolve(e).(type) {
			case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode, nil:
			default:
				nodes = append(nodes, e)
			}
		}
	} else {
		nodes = []ast.Node{p.rawValue}
	}
	for i, h := range r.h.Action.AllowedHosts {
		if i < len(nodes) && !validAllowedHost(h) {
			d.errorf(nodes[i], "allowed host %q is not a host name, IP address or CIDR prefix", h)
		}
	}
}

// validAllowedHost reports whether entry is an allowlist entry the SSRF guard accepts
// (internal/netguard.New): a CIDR prefix ("10.1.0.0/16"), an IP address, optionally in
// brackets ("::1", "[::1]"), or a host name of dot-separated labels of 1-63 letters,
// digits, '-' or '_', at most 253 bytes, matched case-insensitively, with an optional
// trailing dot. Wildcards ("*.example.com") and ports are not accepted.
func validAllowedHost(entry string) bool {
	s := strings.TrimSpace(entry)
	if _, err := netip.ParsePrefix(s); err == nil {
		return true
	}
	if _, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return true
	}
	h := strings.ToLower(s)
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
