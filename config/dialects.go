package config

import (
	"github.com/hookcore/hookcore/hook"
	"sync"
)

// codebotAsync are the events codebot runs fire-and-forget (seed 000, the event table:
// PostToolUse "异步 goroutine … 用 detached context", Notification, SessionStart,
// SessionEnd and SubagentStop "异步 · 不可阻塞"): the agent does not wait for them and
// they cannot change anything.
var codebotAsync = sync.OnceValue(func() map[hook.Event]bool {
	return map[hook.Event]bool{
		hook.PostToolUse: true, hook.Notification: true, hook.SessionStart: true,
		hook.SessionEnd: true, hook.SubagentStop: true,
	}
})

// s08ExitCodes is the three-state return-code protocol of the s08 teaching harness (seed
// 002, "返回码协议"): 0 continue, 1 block, 2 inject the hook's message.
func s08ExitCodes() map[int]string { return map[int]string{1: "block", 2: "inject"} }

// seedDefaults gives a Flat-dialect hook its own system's semantics where the entry does
// not say otherwise (issue 8 item 7):
//   - an entry without `type` is an s08 hook (S08 set): its exit codes follow the s08
//     protocol unless it has `exit_codes` of its own;
//   - an entry with `type` is a codebot hook: on the events of codebotAsync it is async
//     unless it says `async: false`.
func seedDefaults(r *rawHook) {
	h := &r.h
	if h.Dialect != Flat {
		return
	}
	if _, typed := r.at["action.type"]; !typed {
		h.S08 = true
		if _, set := r.at["exit_codes"]; !set {
			h.ExitCodes = s08ExitCodes()
		}
		return
	}
	if _, set := r.at["async"]; !set && codebotAsync()[h.Event] {
		h.Async = true
	}
}
