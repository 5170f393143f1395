// Command hookcore checks hook configs, fires single events at them, replays recorded agent
// sessions through them and runs the reference agent. See `hookcore help`.
package main

import (
	"os"

	"github.com/hookcore/hookcore/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
