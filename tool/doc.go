// Package tool is the tool-call vocabulary shared by the hook engine (the root package), the
// reference agent (agent) and the model clients (model): a Call, the Func that runs one,
// the Middleware that wraps a Func, Chain, the RejectedError whose reason goes back to the
// model, and the Session carried in a tool call's context.
//
// It is standard library only and does no I/O, so that every layer can speak it without
// importing the engine: the agent kernel runs tool middleware and knows no hook (DESIGN.md
// section 2, "the kernel provides mechanism, the harness decides policy"); the root package's
// Runner.Middleware is one such middleware.
//
// A middleware is a function that wraps a function (seed 000's agentcore.ToolMiddleware);
// Chain(a, b) draws the onion
//
//	a → b → tool → b → a
//
// and each layer may run code before next, skip next (a veto: return a *RejectedError), pass
// next another input (the rewrite is what the tool runs) or another context, and look at
// the output after.
package tool
