//go:build !(linux || darwin)

package pipetest
