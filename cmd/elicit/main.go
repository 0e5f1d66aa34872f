// Command elicit is the CLI and MCP server of the elicit toolkit.
package main

import (
	"os"

	// Before any other package initialises: the stack a call needs, in
	// one copy while it is shallow.
	_ "github.com/elicit/elicit/internal/stackroom"

	"github.com/elicit/elicit/internal/cli"
)

func main() { os.Exit(cli.Main()) }
