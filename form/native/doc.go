// Package native is the native MCP elicitation surface: it maps a validated
// form to an elicitation request's requestedSchema (a flat object of
// primitive properties, spec 2025-11-25) and an accepted elicitation's
// content back to answers keyed by field id.
package native
