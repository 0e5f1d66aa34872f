package cli

import (
	"fmt"

	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/visible"
)

// tightenHome makes $ELICIT_HOME private before anything is kept there,
// printing a one-line notice when it was open to others.
func (a *app) tightenHome() error {
	home, err := config.Home(a.getenv)
	if err != nil {
		return err
	}
	notice, err := config.TightenHome(home)
	if notice != "" {
		fmt.Fprintln(a.stderr, "elicit: "+visible.String(notice)) // it names $ELICIT_HOME
	}
	return err
}
