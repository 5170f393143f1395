// Package llm is the old home of the reference agent's chat models. They moved into package
// model, where one client per provider serves both the judge (Complete) and the agent (Chat)
// from one provider resolution (docs/decisions.md, "one model package").
//
// Deprecated: use package model. The names here are aliases kept for one release.
package llm
