package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/elicit/elicit/internal/version"
	"github.com/elicit/elicit/mcpserver"
	"github.com/elicit/elicit/method"
	"github.com/spf13/cobra"
)

func serveCommand(a *app) *cobra.Command {
	var addr, token, tools string
	rf := &registryFlags{}
	cmd := &cobra.Command{
		Use:   "serve [--tools LIST] [--http ADDR [--token TOKEN]]",
		Short: "Serve elicit's tools, prompts and resources over MCP (stdio by default, or Streamable HTTP)",
		Long: `Serve MCP over standard input and output (the default), or over Streamable HTTP at
http://ADDR/mcp with --http. A bare port binds to 127.0.0.1; a host that is not loopback
needs --token (or ELICIT_TOKEN), which every request must then send as a bearer token.
--tools serves a subset: groups (forms, methods, deliberation) and tool names, separated
by commas; the prompts, resources and instructions follow the groups served.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if token == "" {
				token = a.getenv("ELICIT_TOKEN")
			}
			var names []string
			if cmd.Flags().Changed("tools") {
				var err error
				if names, err = mcpserver.ResolveTools(tools); err != nil {
					return usagef("%v", err)
				}
			}
			reg := a.registry(rf)
			a.warn(reg)
			// The consultations deliberation_send runs in the background
			// stop with the server (SIGTERM, Ctrl-C, stdin closed), each
			// recorded as canceled so its deliberation recovers.
			bg := mcpserver.NewBackground()
			defer bg.Stop(15 * time.Second)
			s := mcpserver.New(&mcpserver.Options{
				Version:    version.Get().Version,
				Templates:  a.templates(),
				Registry:   func() *method.Registry { return reg },
				Project:    a.project(),
				Getenv:     a.getenv,
				Tools:      names,
				Background: bg,
			})
			if err := a.tightenHome(); err != nil {
				fmt.Fprintln(a.stderr, "elicit: warning: "+err.Error())
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if addr == "" {
				return mcpserver.ServeStdio(ctx, s)
			}
			listen, err := mcpserver.ListenAddr(addr, token)
			if err != nil {
				return usagef("%v", err)
			}
			return mcpserver.ServeHTTP(ctx, s, listen, token, func(bound string) {
				fmt.Fprintf(a.stderr, "elicit: serving MCP at http://%s/mcp\n", bound)
			})
		},
	}
	cmd.Flags().StringVar(&tools, "tools", "", "serve only these tools: `LIST` of groups (forms, methods, deliberation) and tool names")
	cmd.Flags().StringVar(&addr, "http", "", "serve Streamable HTTP on `ADDR` (PORT or HOST:PORT) instead of stdio")
	cmd.Flags().StringVar(&token, "token", "", "bearer `TOKEN` every HTTP request must send (default $ELICIT_TOKEN)")
	cmd.Flags().StringVar(&rf.registry, "registry", "", "method registry CSV `file` (default $ELICIT_METHODS, else the embedded registry)")
	return cmd
}
