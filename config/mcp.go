package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// MCPSource is a file that declares MCP servers, whose tools mcp_tool hooks call (Claude
// Code's MCP scopes): its raw content, not parsed here (package mcptool parses the
// {"mcpServers": {...}} document). Data is that document: for ~/.claude.json, the top-level
// mcpServers (user scope) or those of its projects[<root>] entry (local scope), re-encoded.
type MCPSource struct {
	// Path is the file's path.
	Path string
	// Layer is Project for <root>/.mcp.json: a repository's file, so its servers are
	// commands from the repository and start only in a trusted workspace (TrustDigest
	// covers this file). User is the user's ~/.claude.json and a plugin's .mcp.json.
	Layer Layer
	// Scope is "user", "project", "local" or "plugin": the Claude Code scope. Names
	// resolve local, then project, then user (Claude Code's precedence); a plugin's
	// servers have names of their own.
	Scope string
	// Plugin is the plugin's name for a plugin's .mcp.json: its servers are named
	// "plugin:<Plugin>:<server>" (research note §2.5).
	Plugin string
	// Hash is the hex SHA-256 of the file's content (for the trust digest).
	Hash string
	// Data is the {"mcpServers": {...}} document.
	Data []byte
}

// MaxMCPFile caps a file read for MCP servers, in bytes (16 MiB: ~/.claude.json also holds
// Claude Code's per-project history). A larger file is left out.
const MaxMCPFile = 16 << 20

// MCPSources finds the files that declare MCP servers for the project at root, in Claude
// Code's places: ~/.claude.json's mcpServers (user scope) and projects[root].mcpServers
// (local scope), <root>/.mcp.json (project scope), and <plugin root>/.mcp.json of each
// plugin file of plugins (File.Plugin, File.PluginRoot). home "" skips ~/.claude.json.
// Files that are missing or too large, and a ~/.claude.json that is not JSON, are left out;
// a .mcp.json is read as it is, and the mcp_tool executor reports one that does not parse
// (its servers' hooks then fail with "no MCP server").
func MCPSources(root, home string, plugins []*File) []MCPSource {
	var out []MCPSource
	if home != "" {
		p := filepath.Join(home, ".claude.json")
		if data, hash, ok := readMCP(p); ok {
			var doc struct {
				MCPServers json.RawMessage `json:"mcpServers"`
				Projects   map[string]struct {
					MCPServers json.RawMessage `json:"mcpServers"`
				} `json:"projects"`
			}
			if json.Unmarshal(data, &doc) == nil {
				if len(doc.MCPServers) > 0 {
					out = append(out, MCPSource{Path: p, Layer: User, Scope: "user", Hash: hash, Data: servers(doc.MCPServers)})
				}
				if pr, ok := doc.Projects[root]; ok && len(pr.MCPServers) > 0 {
					out = append(out, MCPSource{Path: p, Layer: User, Scope: "local", Hash: hash, Data: servers(pr.MCPServers)})
				}
			}
		}
	}
	if root != "" {
		p := filepath.Join(root, ".mcp.json")
		if data, hash, ok := readMCP(p); ok {
			out = append(out, MCPSource{Path: p, Layer: Project, Scope: "project", Hash: hash, Data: data})
		}
	}
	seen := map[string]bool{}
	for _, f := range plugins {
		if f.Plugin == "" || f.PluginRoot == "" || seen[f.PluginRoot] {
			continue
		}
		seen[f.PluginRoot] = true
		p := filepath.Join(f.PluginRoot, ".mcp.json")
		if data, hash, ok := readMCP(p); ok {
			out = append(out, MCPSource{Path: p, Layer: User, Scope: "plugin", Plugin: f.Plugin, Hash: hash, Data: data})
		}
	}
	return out
}

func servers(raw json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]json.RawMessage{"mcpServers": raw})
	return b
}

func readMCP(p string) ([]byte, string, bool) {
	data, _, err := regularfile.Read(p, MaxMCPFile) // a repository's .mcp.json: never a hang on a named pipe
	if err != nil {
		return nil, "", false
	}
	sum := sha256.Sum256(data)
	return data, hex.EncodeToString(sum[:]), true
}
