// Package agent is hookcore's reference agent kernel: a small tool-using loop around a Model,
// with Tools, a tool.Middleware chain and a Session that reports every lifecycle moment to an
// Observer (DESIGN.md section 8).
//
// The kernel knows nothing of hooks ("the kernel provides mechanism, the harness decides
// policy", seed 000): it tells its Observer that a moment came (SessionStart, PreSend,
// Stop, ...) and acts on the Verdict it gets back (block, reason, context, permission), and it
// runs every tool call through the middleware chain it was given. Package agent/harness
// implements the Observer and a middleware with a hookcore.Runner; any other policy can.
//
// The loop, per user prompt:
//
//	UserPromptSubmit (a block rejects the prompt)
//	loop {
//		PreSend → Model.Chat → PostReceive
//		for each tool call: middleware chain → permission check → Tool.Run; FileChange
//	}
//	Stop (a block continues with the reason, at most MaxStopBlocks times)
//	PostStopValidation (files changed since the last pass; a failure continues with a
//	<system-reminder>, at most MaxValidationRounds times)
//	Notification (idle_prompt)
//
// Context an Observer returns is shown to the model as a <hook-notification> in the system
// area of the next request, never as a chat message.
package agent
