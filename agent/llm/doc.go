// Package llm holds the reference agent's chat models (agent.Model): OpenAI Chat
// Completions (and every OpenAI-compatible server), Anthropic Messages, both with tool
// calling on the official SDKs, and Scripted, which replays a script (model.ParseScript,
// DESIGN.md section 8) for tests and the offline demo. New builds one from a model string,
// with the endpoints and keys of package model.
package llm
