// Package harness wires a hookcore.Runner into the reference agent (package agent): it is
// the agent's Observer (each moment fires the hook event of the same name) and a tool
// middleware (PreToolUse → permission decision → tool → PostToolUse or PostToolUseFailure),
// and it writes the session log of docs/session-log.md, one line per event fired, so that a
// session can be replayed (`hookcore replay`, package transcript).
//
// It is the only part of the agent that knows what a hook is (seed 000: "the kernel
// provides mechanism, the harness decides policy"):
//
//	h := harness.New(harness.Options{Runner: r, Log: logFile})
//	s, _ := agent.New(agent.Options{Model: m, Tools: tools.All(ws),
//		Observer: h, Middleware: []tool.Middleware{h.Middleware()}})
//	h.Startup(ctx, dir)
//	err := s.Run(ctx, prompt)
//	h.Shutdown(ctx, dir)
package harness
