package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/elicit/elicit/mcpserver"
	"github.com/elicit/elicit/method"
	"github.com/spf13/cobra"
)

func serveCommand(a *app) *cobra.Command {
	var addr, token string
	rf := &registryFlags{}
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR [--token TOKEN]]",
		Short: "Serve every elicit tool over MCP (stdio by default, or Streamable HTTP)",
		Long: `Serve MCP over standard input and output (the default), or over Streamable HTTP at
http://ADDR/mcp with --http. A bare port binds to 127.0.0.1; a host that is not loopback
needs --token (or ELICIT_TOKEN), which every request must then send as a bearer token.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if token == "" {
				token = a.getenv("ELICIT_TOKEN")
			}
			reg := a.registry(rf)
			a.warn(reg)
			s := mcpserver.New(&mcpserver.Options{
				Version:   Version,
				Templates: a.templates(),
				Registry:  func() *method.Registry { return reg },
				Project:   a.project(),
				Getenv:    a.getenv,
			})
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
	cmd.Flags().StringVar(&addr, "http", "", "serve Streamable HTTP on `ADDR` (PORT or HOST:PORT) instead of stdio")
	cmd.Flags().StringVar(&token, "token", "", "bearer `TOKEN` every HTTP request must send (default $ELICIT_TOKEN)")
	cmd.Flags().StringVar(&rf.registry, "registry", "", "method registry CSV `file` (default $ELICIT_METHODS, else the embedded registry)")
	return cmd
}
