package delibdb

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/pgtest"
)

var pg *pgtest.Server

func TestMain(m *testing.M) { pgtest.Main(m, &pg) }

// replicas are n processes' views of one new team database, each a store
// of its own (its own folder, which is only named).
func replicas(t *testing.T, n int) []*deliberation.Store {
	t.Helper()
	pgtest.Need(t, pg)
	url := pg.NewDatabase(t)
	out := make([]*deliberation.Store, n)
	for i := range out {
		d, err := open(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(d.Close)
		out[i] = deliberation.NewStore(t.TempDir(), &deliberation.StoreOptions{Shared: d})
	}
	return out
}

const question = "Should the team store keep deliberations in PostgreSQL rather than in files?"

func TestADeliberationStartedOnOneReplicaGoesOnOnAnother(t *testing.T) {
	r := replicas(t, 2)
	id, s, err := r[0].Start(question, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r[1].Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Next.Prompt != s.Next.Prompt {
		t.Fatalf("the other replica reads another prompt:\n%s\nwant\n%s", got.Next.Prompt, s.Next.Prompt)
	}
	if _, err := r[1].Respond(id, "Yes: one database, one lock per deliberation."); err != nil {
		t.Fatal(err)
	}
	back, err := r[0].Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if back.Next == nil || back.Next.Awaiting != deliberation.AwaitEvaluation {
		t.Fatalf("the first replica does not see the answer given on the second: next %+v", back.Next)
	}
	list, err := r[0].List()
	if err != nil || len(list) != 1 || list[0].ID != id || list[0].Error != "" {
		t.Fatalf("list = %+v, %v; want the one deliberation %s", list, err, id)
	}
	tr, err := r[0].ReadTranscript(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(tr, []byte("\n")); n != 2 {
		t.Fatalf("transcript has %d records, want 2 (start, response):\n%s", n, tr)
	}
	rebuilt, err := r[1].Rebuild(id)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt.TranscriptOffset != back.TranscriptOffset || rebuilt.Next.Prompt != back.Next.Prompt {
		t.Fatalf("the state and the transcript disagree: rebuilt offset %d, stored %d", rebuilt.TranscriptOffset, back.TranscriptOffset)
	}
}

func TestStartsOnEveryReplicaAtOnceGetDistinctIDs(t *testing.T) {
	r := replicas(t, 3)
	var mu sync.Mutex
	ids := map[string]bool{}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			id, _, err := r[i%3].Start(question, nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			ids[id] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(ids) != 12 {
		t.Fatalf("12 starts gave %d IDs: %v", len(ids), ids)
	}
	list, err := r[0].List()
	if err != nil || len(list) != 12 {
		t.Fatalf("list has %d entries (%v), want 12", len(list), err)
	}
}

func TestStepsOnEveryReplicaAtOnceLoseNothingAndApplyNothingTwice(t *testing.T) {
	r := replicas(t, 2)
	id, _, err := r[0].Start(question, nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, err := r[i%2].Update(id, func(s *deliberation.State, _ time.Time) ([]deliberation.Record, error) {
				return []deliberation.Record{{Kind: "consult_failure", Iteration: s.Iteration, Text: fmt.Sprintf("note %d", i)}}, nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	tr, err := r[1].ReadTranscript(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if c := strings.Count(string(tr), fmt.Sprintf(`"note %d"`, i)); c != 1 {
			t.Errorf("note %d is in the transcript %d times, want once", i, c)
		}
	}
	s, err := r[0].Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if s.TranscriptOffset != int64(len(tr)) {
		t.Fatalf("state includes %d bytes of a %d-byte transcript", s.TranscriptOffset, len(tr))
	}
}

func TestAConsultationOfAGoneReplicaReadsAsInterrupted(t *testing.T) {
	old := LeaseTTL
	LeaseTTL = 900 * time.Millisecond
	t.Cleanup(func() { LeaseTTL = old })
	pgtest.Need(t, pg)
	url := pg.NewDatabase(t)
	gone, err := open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gone.Close)
	stays, err := open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stays.Close)
	a := deliberation.NewStore(t.TempDir(), &deliberation.StoreOptions{Shared: gone})
	b := deliberation.NewStore(t.TempDir(), &deliberation.StoreOptions{Shared: stays})
	id, _, err := a.Start(question, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.BeginConsultation(id, deliberation.NewConsultation("command:sleep", true), false); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * LeaseTTL) // the heartbeat holds it
	s, err := b.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Consultation; c == nil || c.Lease == "" || !c.Alive() || stays.Ours(c.Lease) {
		t.Fatalf("the other replica sees consultation %+v; want one alive under another replica's lease", c)
	}
	if _, err := b.BeginConsultation(id, deliberation.NewConsultation("command:cat", true), true); err == nil {
		t.Fatal("a second consultation began while the first one's lease holds")
	}
	gone.Close() // the replica dies: no more heartbeats
	time.Sleep(LeaseTTL + 300*time.Millisecond)
	s, err = b.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if s.Consultation == nil || s.Consultation.Alive() {
		t.Fatalf("after the lease lapsed the consultation reads %+v, want interrupted (not alive)", s.Consultation)
	}
	s, err = b.BeginConsultation(id, deliberation.NewConsultation("command:cat", true), true)
	if err != nil {
		t.Fatalf("the interrupted consultation is not taken over: %v", err)
	}
	if !stays.Ours(s.Consultation.Lease) || !s.FreshSession {
		t.Fatalf("taken over as %+v (fresh session %v), want this replica's, in a fresh session", s.Consultation, s.FreshSession)
	}
}

func TestACancelAskedOnOneReplicaReachesTheOneRunningTheConsultation(t *testing.T) {
	old := LeaseTTL
	LeaseTTL = 900 * time.Millisecond
	t.Cleanup(func() { LeaseTTL = old })
	r := replicas(t, 2)
	id, _, err := r[0].Start(question, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r[0].BeginConsultation(id, deliberation.NewConsultation("command:sleep", true), false)
	if err != nil {
		t.Fatal(err)
	}
	canceled := make(chan struct{})
	runner := r[0].Shared().(*DB)
	stop := runner.OnCancel(s.Consultation.Lease, func() { close(canceled) })
	defer stop()
	seen, err := r[1].Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := r[1].Shared().(*DB).Cancel(seen.Consultation.Lease); err != nil {
		t.Fatal(err)
	}
	select {
	case <-canceled:
	case <-time.After(3 * LeaseTTL):
		t.Fatal("the replica running the consultation never heard of the cancel")
	}
}
