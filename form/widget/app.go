package widget

import (
	"strings"
	"sync"
)

// The MCP App (extension io.modelcontextprotocol/ui, spec 2026-01-26): one
// page, served as a resource, that hosts able to show apps load in a frame
// next to a form tool's call.
const (
	// AppURI is the app's resource.
	AppURI = "ui://elicit/form.html"
	// AppMIMEType marks an MCP App page.
	AppMIMEType = "text/html;profile=mcp-app"
	// AppExtension is the extension's id in client capabilities.
	AppExtension = "io.modelcontextprotocol/ui"
	// ValidateTool is the app-only tool the page checks answers with.
	ValidateTool = "elicitation_widget_validate"
)

// AppHTML is the app's page. It holds no form: it gets the form from the
// tool call it is shown for (the widget in elicitation_render_widget's
// result, or else by calling that tool with the call's arguments), checks
// answers with ValidateTool, shows problems beside the failing fields,
// and hands the validated response to the model with
// ui/update-model-context and a one-line ui/message.
func AppHTML() string { return appHTML() }

var appHTML = sync.OnceValue(buildAppHTML)

func buildAppHTML() string {
	page, err := assetFS.ReadFile("assets/app.html")
	if err != nil {
		panic("widget: missing embedded app.html")
	}
	js, err := assetFS.ReadFile("assets/app.js")
	if err != nil {
		panic("widget: missing embedded app.js")
	}
	return strings.Replace(string(page), "APP_JS", string(js), 1)
}
