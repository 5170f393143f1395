// Command hookcore-hook is hookcore's hook command alone, for agents to run at every hook
// event: `hookcore-hook claude` is `hookcore hook claude` (same flags, same answers), and
// starts about as fast as a minimal Go program when built with -tags hookcore_lean:
//
//	CGO_ENABLED=0 go build -tags hookcore_lean -o hookcore-hook ./cmd/hookcore-hook
//
// Built so, it links no net/http, TLS or model SDK. A config it cannot run itself (an http
// or prompt hook, an mcp_tool or rego policy, --server, telemetry) it hands over to the full
// hookcore binary — the file `hookcore` beside it, else on PATH — with the same arguments
// and input. Built without the tag it is the full hook command (and as slow to start).
//
// A hook process lives for milliseconds, so it runs without the runtime's background
// goroutine that re-reads the CPU limit (Go 1.25's updatemaxprocs; GOMAXPROCS is still set
// from the limit at start): 1.5 % of a hook process (issue 9, 400 alternating rounds).
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/hookcore/hookcore/internal/cli"
)

// growStack needs a 16 KiB frame (i, from outside, keeps the compiler from eliding it), so
// the main goroutine's stack grows from its first 8 KiB to 32 KiB in one copy while it is
// shallow, instead of in several copies later, each of which walks the deeper stack of the
// config parser and the Runner: 2 % off a hook process (1.41 to 1.38 times the minimal Go
// program, 400 alternating rounds, 6 fewer page faults; issue 9, bench/hookbridge.sh).
//
//go:noinline
func growStack(i int) byte {
	var frame [16 << 10]byte
	frame[i%len(frame)] = 1
	return frame[(i+1)%len(frame)]
}

func main() {
	growStack(len(os.Args))
	args := os.Args[1:]
	if len(args) > 0 && args[0] != "hook" {
		args = append([]string{"hook"}, args...) // `hookcore-hook claude` is `hookcore hook claude`
	}
	os.Exit(cli.Main(args, os.Stdin, os.Stdout, os.Stderr))
}
