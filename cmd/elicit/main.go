// Command elicit is the CLI and MCP server of the elicit toolkit.
package main

import (
	"os"

	"github.com/elicit/elicit/internal/cli"
)

func main() { os.Exit(cli.Main()) }
