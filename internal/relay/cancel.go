package relay

import (
	"context"
	"time"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/problem"
)

// Cancel stops the consultation of deliberation id that another process
// runs: it gets SIGTERM, on which elicit kills the consultant's process
// group and records the cancellation; Cancel waits up to wait for that.
// A consultation whose process is gone (a kill, a restart) is ended as
// canceled at once. Either way the next send opens a fresh session.
func Cancel(st *deliberation.Store, id string, wait time.Duration) error {
	s, err := st.Load(id)
	if err != nil || s.Consultation == nil {
		return err
	}
	if !s.Consultation.Alive() {
		_, err := st.EndConsultation(id, StatusCanceled, true)
		return err
	}
	if l, ok := st.Shared().(leases); ok && s.Consultation.Lease != "" && !s.Consultation.Ours() {
		// another process runs it, perhaps on another machine: it hears
		// of the cancel at its next heartbeat
		if err := l.Cancel(s.Consultation.Lease); err != nil {
			return err
		}
		_, err = Wait(context.Background(), st, id, wait, 250*time.Millisecond)
		return err
	}
	if s.Consultation.Ours() {
		return problem.List{{Path: "consultation", Message: "runs in this very process: cancel it where it was started (its context)"}}
	}
	if err := terminate(s.Consultation.PID); err != nil {
		return err
	}
	_, err = Wait(context.Background(), st, id, wait, 100*time.Millisecond)
	return err
}
