//go:build tools

// Package deps pins the module's chosen libraries before every package uses them.
package deps

import (
	_ "code.dny.dev/ssrf"
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/goccy/go-yaml"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "go.uber.org/goleak"
	_ "mvdan.cc/sh/v3/syntax"
)
