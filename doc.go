// Package hookcore is a lifecycle-hook engine for AI coding agents: the Runner that an agent
// builder embeds to let users hang their own programs on fixed moments of the agent's life
// (before a tool runs, after it ran, when a prompt is submitted, when the agent wants to
// stop) and let those programs observe, veto, rewrite the tool input or add context.
//
// Build a Runner from config files (all three dialects of package config: MiniCode YAML,
// codebot flat JSON, Claude Code nested JSON), call Fire at each lifecycle point, and wrap the
// tool pipeline with Middleware:
//
//	set, errs := config.Load(paths)
//	if err := errs.Err(); err != nil { ... }          // file:line:col: hook-id: message
//	r, err := hookcore.New(set, hookcore.Options{Logger: logger})
//	defer r.Close(ctx)                                  // waits for async hooks
//	res := r.Fire(ctx, hook.UserPromptSubmit, &hook.Input{SessionID: id, Prompt: p})
//	if res.Blocked { ... reject the prompt with res.Reason ... }
//
// The Runner's semantics follow DESIGN.md section 7: hooks run in config order; on gate
// events sequentially, each seeing the input as rewritten by the ones before, the first block
// ending the chain; feedback and observe events may run in parallel; async hooks run in the
// background until Close. A hook that fails never takes the agent down: it is recorded with
// outcome error and the action goes on, unless the hook says on_error: block.
package hookcore
