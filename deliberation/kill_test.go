package deliberation

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killChildEnv switches TestKillChild on: the test binary, re-executed as
// a child, runs random operations on a store's deliberations until it is
// killed.
const killChildEnv = "ELICIT_DELIBERATION_KILL_CHILD"

// maxKillDeliberations bounds the active deliberations the child works on.
const maxKillDeliberations = 4

func TestKillChild(t *testing.T) {
	arg := os.Getenv(killChildEnv)
	if arg == "" {
		t.Skip("only runs as the child of TestKillsLeaveEveryDeliberationReplayable")
	}
	dir, seedArg, _ := strings.Cut(arg, "|")
	seed, _ := strconv.ParseUint(seedArg, 10, 64)
	st := NewStore(dir, nil)
	g := gen{rand.New(rand.NewPCG(seed, 1))}
	ready := false
	for {
		if killOperate(t, st, g) && !ready {
			fmt.Println("ready") // the parent kills only from now on
			ready = true
		}
	}
}

// killOperate runs one random operation: start, respond, send (a
// consultation begun, then answered or failed), evaluate, recover or
// abandon. Refusals are part of the game; it reports whether something was
// written.
func killOperate(t *testing.T, st *Store, g gen) bool {
	var active []string
	for _, id := range storeIDs(t, st.Dir()) {
		if s, err := st.Load(id); err == nil && s.Active() && s.Next != nil {
			active = append(active, id)
		}
	}
	if len(active) < maxKillDeliberations && (len(active) == 0 || g.chance(0.1)) {
		_, _, err := st.Start("q?", &StartOptions{Quick: g.chance(0.2)})
		return err == nil
	}
	id := active[g.r.IntN(len(active))]
	s, err := st.Load(id)
	if err != nil {
		return false
	}
	switch {
	case g.chance(0.02):
		_, err = st.Abandon(id)
	case g.chance(0.04):
		_, err = st.Recover(id)
	case s.Next.Awaiting == AwaitResponse && g.chance(0.5):
		prompt := s.Next.Prompt
		if _, err := st.BeginConsultation(id, NewConsultation("scripted", g.chance(0.5)), true); err != nil {
			return false
		}
		if g.chance(0.2) {
			_, err = st.EndConsultation(id, "timeout", true, Record{Kind: "consult_failure", Data: []byte(`{"kind":"timeout"}`)})
			break
		}
		_, err = st.RecordAnswer(id, prompt, g.response(s), AnswerInfo{Consultant: "scripted", SessionID: "s" + strconv.Itoa(g.r.IntN(3))},
			Record{Kind: "consult", Data: []byte(`{"consultant":"scripted"}`)})
	case s.Next.Awaiting == AwaitResponse:
		_, err = st.Respond(id, g.response(s))
	default:
		_, err = st.Evaluate(id, g.evaluation(s))
	}
	return err == nil
}

// storeIDs are the deliberations in dir: every transcript, whether or not
// its state file exists.
func storeIDs(t *testing.T, dir string) []string {
	t.Helper()
	des, _ := os.ReadDir(dir)
	var ids []string
	for _, de := range des {
		if id, ok := idOf(de.Name(), transcriptPrefix, ".jsonl"); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestKillsLeaveEveryDeliberationReplayable kills (SIGKILL) 200 processes
// at random moments while they start, answer, consult and evaluate
// deliberations, four at a time on one store, and checks after every round
// that each deliberation loads and that its transcript replays to exactly
// that state; at the end a clean leaves no leftover.
func TestKillsLeaveEveryDeliberationReplayable(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	st := NewStore(filepath.Join(t.TempDir(), "d"), nil)
	if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	const kills, together = 200, 4
	began := time.Now()
	for round := 0; round < kills/together; round++ {
		// Several children at once on the same store (its locks keep them
		// apart); each, once it has written something, is killed at a
		// random moment of what it does next.
		var cmds []*exec.Cmd
		var outs []*bufio.Reader
		for k := range together {
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), killChildEnv+"="+st.Dir()+"|"+strconv.Itoa(round*together+k))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds, outs = append(cmds, cmd), append(outs, bufio.NewReader(out))
		}
		for _, out := range outs {
			out.ReadString('\n')
		}
		for _, cmd := range cmds {
			time.Sleep(time.Duration(r.IntN(15)) * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
		}
		checkReplayable(t, st, fmt.Sprintf("after kill %d", (round+1)*together))
	}
	c, err := st.Clean()
	if err != nil || len(c.Kept) > 0 {
		t.Fatalf("clean: %+v, %v", c, err)
	}
	checkReplayable(t, st, "after the clean")
	leftovers, _ := filepath.Glob(filepath.Join(st.Dir(), ".*.tmp-*"))
	if len(leftovers) > 0 {
		t.Errorf("leftovers after the clean: %v", leftovers)
	}
	records := 0
	for _, id := range storeIDs(t, st.Dir()) {
		data, _ := os.ReadFile(st.TranscriptPath(id))
		records += strings.Count(string(data), "\n")
		if _, err := os.Stat(st.StatePath(id)); err != nil {
			t.Errorf("%s has no state file after the clean", id)
		}
	}
	if records < kills {
		t.Fatalf("only %d records in the surviving transcripts: the children hardly ran", records)
	}
	t.Logf("%d kills in %s; %d records in %d surviving deliberations; the clean removed %d files and restored %d",
		kills, time.Since(began).Round(time.Millisecond), records, len(storeIDs(t, st.Dir())), len(c.Removed), len(c.Restored))
}

// checkReplayable: every deliberation loads, is valid, and its transcript
// replays to exactly the state loaded; a transcript without any record
// (a kill right after its name was claimed) is the only leftover allowed.
func checkReplayable(t *testing.T, st *Store, when string) {
	t.Helper()
	for _, id := range storeIDs(t, st.Dir()) {
		s, err := st.Load(id)
		if err != nil {
			if data, _ := os.ReadFile(st.TranscriptPath(id)); len(strings.TrimSpace(string(data))) == 0 {
				continue
			}
			t.Fatalf("%s: %s does not load: %v", when, id, err)
		}
		if err := s.validate(); err != nil {
			t.Fatalf("%s: %s is invalid: %v", when, id, err)
		}
		replayed, err := st.Rebuild(id)
		if err != nil {
			t.Fatalf("%s: %s does not replay: %v", when, id, err)
		}
		if a, b := mustJSON(replayed), mustJSON(s); a != b {
			t.Fatalf("%s: %s replays to another state:\n%s\nwant\n%s", when, id, a, b)
		}
	}
}
