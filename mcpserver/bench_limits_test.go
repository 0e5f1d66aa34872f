package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/benchcpu"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// form1MiB is a form of boolean fields filling nearly 1 MiB of arguments.
func form1MiB(field func(i int) string) string {
	return string(formtest.Fill(`{"title":"t","fields":[`, "]}", form.MaxInput-100, field))
}

var forms1MiB = []struct {
	name  string
	field func(i int) string
	valid bool
}{
	{"one_id_repeated", func(int) string { return `{"id":"a","text":"q","type":"boolean"}` }, false},
	{"distinct_ids", func(i int) string { return fmt.Sprintf(`{"id":"f%d","text":"Q%[1]d?","type":"boolean"}`, i) }, true},
	// Text fields AskUserQuestion cannot ask: all of them go to a markdown
	// follow-up.
	{"textarea_fields", func(i int) string { return fmt.Sprintf(`{"id":"t%d","text":"T%[1]d?","type":"textarea"}`, i) }, true},
}

// BenchmarkServerForm1MiB is the server's own time for one call with a
// form of nearly 1 MiB (the arguments' cap), on `elicit serve`'s transport
// over a pipe: elicitation_select_surface, which validates the form and
// answers in a line, and elicitation_render_form, whose AskUserQuestion
// payloads for 20,000 questions run to megabytes. The forms are the issue's
// boolean fields with one id repeated (a 99 KB form once ran past 2 minutes
// at 3 GB over MCP) and with distinct ids (target: at most 100 ms and 64 MiB
// to validate).
func BenchmarkServerForm1MiB(b *testing.B) {
	for _, tool := range []string{"elicitation_select_surface", "elicitation_render_form"} {
		for _, f := range forms1MiB {
			p := startPipeServer(b, New(nil), elicitStdio, tool, []byte(form1MiB(f.field)))
			b.Run(strings.TrimPrefix(tool, "elicitation_")+"/"+f.name, func(b *testing.B) {
				defer benchcpu.Start(b)()
				for b.Loop() {
					p.id++
					p.send(b, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"form":%s}}}`, p.id, p.tool, p.args))
					if line := p.line(b); bytes.Contains(line, []byte(`"isError":true`)) == f.valid {
						b.Fatalf("%s: %.200s", f.name, line)
					}
				}
			})
		}
	}
}

// BenchmarkHandlerRenderForm1MiB is the elicitation_render_form handler alone
// on those forms: arguments, parse with full validation, render.
func BenchmarkHandlerRenderForm1MiB(b *testing.B) {
	h := &handlers{opts: (*Options)(nil).withDefaults()}
	run := simple(formArgs, h.renderForm)
	for _, f := range forms1MiB {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(`{"form":` + form1MiB(f.field) + `}`)}}
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			defer benchcpu.Start(b)()
			for b.Loop() {
				if res, _ := run(context.Background(), req); res.IsError == f.valid {
					b.Fatal(res.Content)
				}
			}
		})
	}
}
