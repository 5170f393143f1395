//go:build !hookcore_lean

package cli

import (
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/model"
)

// models returns the resolver of prompt hooks' `model:` strings for hookcore.Options.Models:
// a client of package model (openai:NAME, anthropic:NAME, scripted:PATH, a bare name, or ""
// for the default), configured from the environment (OPENAI_API_KEY, OPENAI_BASE_URL,
// ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, HOOKCORE_MODEL). A relative script path is read
// from the working directory. Failed API requests are retried once.
func (e *env) models() func(name string) (executor.Model, error) {
	cfg := model.Config{Dir: e.cwd, MaxRetries: 1}
	return func(name string) (executor.Model, error) {
		m, err := cfg.New(name)
		if err != nil {
			return nil, err // never a typed nil inside the interface
		}
		return m, nil
	}
}
