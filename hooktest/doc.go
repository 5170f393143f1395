// Package hooktest provides utilities for testing hook executors and the code around them,
// as net/http/httptest does for handlers: TestExecutor, a conformance check of the
// hook.Executor contract; Recorder, an executor that records its calls and answers a
// fixed Decision; and ModelServer, a loopback fake of the OpenAI Chat Completions and
// Anthropic Messages endpoints for prompt hooks and model clients.
//
// It imports package hook and the standard library (and go.uber.org/goleak for the leak
// check); it is meant for tests, never for the engine's own code paths.
package hooktest
