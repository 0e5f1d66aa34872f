// Package mcpserver exposes elicit over the Model Context Protocol, on the
// official Go SDK: every form and method capability as a tool whose name,
// inputs and outputs match what the seed documents tell agents to call, and
// native elicitation (elicitation_ask) through the multi-round-trip input
// requests of protocol 2026-07-28, which the SDK turns into
// elicitation/create for older clients.
//
// The tools are thin adapters over the form and method packages, so the CLI
// and the MCP server can never disagree. Arguments are decoded strictly:
// every problem is listed in one tool error, and arguments over 1 MiB are
// refused.
//
// New(nil) serves every tool with the CLI's defaults, reading the process
// environment: deliberations in $ELICIT_HOME/deliberations (or
// ~/.elicit/deliberations), no response log unless Options.ResponseLogDir
// names its folder.
//
// ServeStdio runs a server on the SDK's stdio transport, which elicit
// watches so that every call read is answered before the session ends at
// the end of the input, and a message the server cannot take gets a
// JSON-RPC error instead of ending the session (docs/decisions.md, "elicit
// serve speaks stdio through the SDK's transport, wrapped").
package mcpserver
