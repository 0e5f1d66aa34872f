package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/method"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const templatePrefix = "elicit://templates/"

// resourceList is every fixed resource elicit serves, each with its group
// and its content.
var resourceList = []struct {
	group   Group
	content func(h *handlers) ([]byte, error)
	*mcp.Resource
}{
	{Forms, func(*handlers) ([]byte, error) { return form.Schema(), nil },
		&mcp.Resource{URI: "elicit://schema/form", Name: "form-schema", Title: "Form JSON Schema", MIMEType: "application/schema+json",
			Description: "The JSON Schema of a form definition (the form argument of the form tools)."}},
	{Forms, func(h *handlers) ([]byte, error) {
		if err := h.opts.Templates.Check(); err != nil {
			return nil, err
		}
		return indented(map[string]any{"templates": h.opts.Templates.List()})
	}, &mcp.Resource{URI: "elicit://templates", Name: "templates", Title: "Form templates", MIMEType: "application/json",
		Description: "The form templates with their slots; each one's definition is at elicit://templates/{name}."}},
	{Methods, func(h *handlers) ([]byte, error) {
		reg := h.opts.Registry()
		ms := reg.Filter("", 0)
		if ms == nil {
			ms = []method.Method{}
		}
		return indented(map[string]any{"methods": ms, "warnings": nonNil(reg.WarningTexts())})
	}, &mcp.Resource{URI: "elicit://methods", Name: "methods", Title: "Method registry", MIMEType: "application/json",
		Description: "The reasoning-method registry: every method with its phases, topics, tier, output pattern and codex_role."}},
	{Deliberation, func(*handlers) ([]byte, error) { return deliberation.EvaluationSchema(), nil },
		&mcp.Resource{URI: "elicit://schema/evaluation", Name: "evaluation-schema", Title: "Evaluation document JSON Schema", MIMEType: "application/schema+json",
			Description: "The JSON Schema of the evaluation document deliberation_evaluate takes: your judgment of one answer."}},
}

func indented(v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	return append(data, '\n'), err
}

func (h *handlers) addResources(s *mcp.Server, groups map[Group]bool) {
	for _, r := range resourceList {
		if !groups[r.group] {
			continue
		}
		s.AddResource(r.Resource, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			data, err := r.content(h)
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: r.MIMEType, Text: string(data)}}}, nil
		})
	}
	if groups[Forms] {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: templatePrefix + "{name}", Name: "template", Title: "A form template",
			MIMEType: "application/json", Description: "One form template's definition, with {slot} placeholders."},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				name := strings.TrimPrefix(req.Params.URI, templatePrefix)
				data, _, err := h.opts.Templates.Source(name)
				if errors.Is(err, form.ErrNoTemplate) {
					// Not found, as the SDK answers other unknown resources,
					// with the message naming the templates there are.
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error(), Data: json.RawMessage(fmt.Sprintf(`{"uri":%q}`, req.Params.URI))}
				}
				if err != nil {
					return nil, err
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)}}}, nil
			})
	}
}
