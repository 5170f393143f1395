// Package model holds the LLM clients of hookcore's upper layers (the CLI and the reference
// agent): an OpenAI-compatible Chat Completions client (OpenAI itself, and local servers such
// as llama.cpp, Ollama and vLLM through a base URL), an Anthropic Messages client, and a
// scripted model that replays turns from a JSON file for tests and demos (DESIGN.md sections
// 2 and 8). Each is one Client with two methods: Complete, the one-shot completion of the
// LLM judge (prompt and agent hooks), and Chat, the agent.Model of the reference agent, with
// tool calls. The two HTTP clients speak the providers' wire formats through net/http and
// encoding/json, with the official SDKs' retry rules (Endpoint.MaxRetries); the package
// imports no third-party module, and nothing here runs at package initialisation: a client
// is built when Config.New is called (docs/decisions.md, "one model package").
//
// The hook engine does not import this package: the prompt executor declares the small
// interface it needs (executor.Model), which every client here implements with Complete, and
// the CLI hands a resolver (Config.New) to the Runner. A model string names the client:
//
//	openai:gpt-4o-mini            OpenAI (or OPENAI_BASE_URL's server), model gpt-4o-mini
//	anthropic:claude-haiku-4-5    Anthropic Messages
//	scripted:testdata/judge.json  replies read from a JSON file
//	gpt-4o, claude-sonnet-4-5     a bare name: the provider is guessed (see ParseSpec)
//	""                            the default (Config.Default, $HOOKCORE_MODEL, or by key)
//
// Keys and endpoints come from the environment, read by Config.New only: OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, ANTHROPIC_API_KEY (or
// ANTHROPIC_AUTH_TOKEN), ANTHROPIC_BASE_URL. A provider with neither a key nor a server of its
// own is an error from Config.New naming the variable; an unreachable endpoint is an error
// from Complete or Chat, and a non-2xx reply an *APIError. The Runner turns both into an
// error on the one hook that asked, never a crash.
package model
