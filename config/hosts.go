package config

import (
	"github.com/hookcore/hookcore/internal/hostspec"

	"github.com/goccy/go-yaml/ast"
)

// checkAllowedHosts reports each `allowed_hosts` entry of an http action that the SSRF
// guard would refuse to load, at the entry's position: the guard's own grammar
// (internal/hostspec), so that `hookcore check` reports it with every other problem instead
// of the Runner failing at build time.
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
		if i < len(nodes) && !validHost(h) {
			d.errorf(nodes[i], "allowed host %q is not a host name, IP address or CIDR prefix", h)
		}
	}
}

func validHost(entry string) bool {
	_, ok := hostspec.Parse(entry)
	return ok
}
