package cli

import (
	"encoding/json"
	"fmt"

	"github.com/elicit/elicit/internal/version"
	"github.com/spf13/cobra"
)

func versionCommand(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print elicit's version, commit and build date",
		Long: `Print the version, the commit and the build date of this binary: set by a release build,
otherwise read from the build information Go records (go install, go build in a checkout).`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			in := version.Get()
			if asJSON {
				data, _ := json.Marshal(in)
				fmt.Fprintf(a.stdout, "%s\n", data)
				return nil
			}
			fmt.Fprintf(a.stdout, "elicit %s\ncommit: %s\nbuilt: %s\nmodified: %v\ngo: %s %s\n", in.Version, in.Commit, in.Date, in.Modified, in.Go, in.Platform)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {version, commit, date, modified, go, platform} as JSON")
	return cmd
}
