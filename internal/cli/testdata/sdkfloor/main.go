// Command sdkfloor is BenchmarkStartup's second yardstick: hello-world that
// also links the MCP SDK and cobra, as elicit does, and uses neither. Their
// package initialisation is the floor of any one binary built on them.
package main

import (
	"fmt"

	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/spf13/cobra"
)

func main() { fmt.Println("hello, world") }
