//go:build !hookcore_lean

package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpServerMain is the program mcpserver (registered by TestMain): a real MCP server over
// stdio, built with the official SDK, for mcp_tool hooks. On start it appends "start" to
// $MCP_LOG when set, and "exit" when its client closes the session. Its tools:
//
//	guard {command}  a PreToolUse envelope: deny "mcp guard: rm -rf refused" when command
//	                 contains "rm -rf", else allow "mcp guard: ok"
//	echo  {...}      the text "echo: " and its arguments as JSON (context on UserPromptSubmit)
//	record {...}     logs "record " and its arguments as JSON, and denies with them as reason
//	                 (the peer-claude scenario testdata/claude/mcp-tool uses it)
//	fail  {}         an isError result "guard crashed"
//	die   {}         the server exits in the middle of the call (a disconnected server)
func mcpServerMain() {
	logf := func(s string) {
		if p := os.Getenv("MCP_LOG"); p != "" {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintln(f, s)
				f.Close()
			}
		}
	}
	logf("start")
	text := func(s string, isErr bool) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: isErr, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "hookcore-test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "guard"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Command string `json:"command"`
	}) (*mcp.CallToolResult, any, error) {
		decision, reason := "allow", "mcp guard: ok"
		if strings.Contains(in.Command, "rm -rf") {
			decision, reason = "deny", "mcp guard: rm -rf refused"
		}
		b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": decision, "permissionDecisionReason": reason}})
		return text(string(b), false), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		b, _ := json.Marshal(in)
		return text("echo: "+string(b), false), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "record"}, func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		b, _ := json.Marshal(in)
		logf("record " + string(b))
		out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "recorded " + string(b)}})
		return text(string(out), false), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return text("guard crashed", true), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "die"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		logf("die")
		os.Exit(3)
		return nil, nil, nil
	})
	err := s.Run(context.Background(), &mcp.StdioTransport{})
	logf("exit")
	if err != nil && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "closed") {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(1)
	}
}
