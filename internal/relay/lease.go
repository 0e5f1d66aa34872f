package relay

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
)

// leases is what a shared database (deliberation.Shared) does for the
// consultations it leases, wherever the process running them is: a cancel
// asked by another process, and the progress it can read.
type leases interface {
	OnCancel(lease string, fn func()) (stop func())
	Cancel(lease string) error
	Progress(lease, p string) error
	Progressed(lease string) string
}

// progressEvery is how often a consultation's progress is written to a
// shared database.
const progressEvery = time.Second

// shareLease makes a consultation under a lease cancelable from any
// process (by cancel) and its progress readable there, until stop.
func (sn *sender) shareLease(cancel func()) (stop func()) {
	l, ok := sn.st.Shared().(leases)
	if !ok || sn.lease == "" {
		return func() {}
	}
	local := sn.o.Progress
	var mu sync.Mutex
	var last time.Time
	sn.o.Progress = func(p consult.Progress) {
		if local != nil {
			local(p)
		}
		mu.Lock()
		due := time.Since(last) >= progressEvery
		if due {
			last = time.Now()
		}
		mu.Unlock()
		if due {
			data, _ := json.Marshal(sharedProgress{Events: p.Events, Last: p.Last, At: time.Now().Unix()})
			l.Progress(sn.lease, string(data))
		}
	}
	return l.OnCancel(sn.lease, cancel)
}

// sharedProgress is a consultation's progress as a shared database keeps
// it.
type sharedProgress struct {
	Events int    `json:"events"`
	Last   string `json:"last,omitempty"`
	At     int64  `json:"at"`
}

// SharedProgress is the progress of a consultation that another process
// runs, as it last wrote it to the shared database (nil when none is
// known).
func SharedProgress(st *deliberation.Store, c *deliberation.Consultation) *deliberation.ConsultProgress {
	l, ok := st.Shared().(leases)
	if !ok || c == nil || c.Lease == "" {
		return nil
	}
	var p sharedProgress
	if json.Unmarshal([]byte(l.Progressed(c.Lease)), &p) != nil {
		return nil
	}
	return &deliberation.ConsultProgress{Events: p.Events, LastEvent: p.Last, LastActivitySeconds: max(0, time.Now().Unix()-p.At)}
}
