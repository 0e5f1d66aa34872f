// Package plugins holds elicit's host plugins: the Claude Code plugin and
// the Codex plugin in plugins/elicit (one folder, two manifests, one set of
// skills). It embeds the skills so the MCP server can serve each as a
// prompt: an agent that reaches elicit only over MCP gets the same "how".
package plugins
