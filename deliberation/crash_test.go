package deliberation

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashChildEnv switches TestCrashChild on: the test binary, re-executed
// as a child, writes the state in a loop until it is killed.
const crashChildEnv = "ELICIT_DELIBERATION_CRASH_CHILD"

func TestCrashChild(t *testing.T) {
	arg := os.Getenv(crashChildEnv)
	if arg == "" {
		t.Skip("only runs as the child of TestCrashKillDuringWrites")
	}
	dir, rest, _ := strings.Cut(arg, "|")
	id, limit, _ := strings.Cut(rest, "|")
	n, _ := strconv.Atoi(limit)
	st := NewStore(dir, nil)
	for i := 0; n == 0 || i < n; i++ {
		_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
			s.SurfacedQuestions = append(s.SurfacedQuestions, strings.Repeat("x", i%500))
			return []Record{{Kind: "note", Text: strings.Repeat("y", i%300)}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrashKillDuringWrites kills (SIGKILL) a process in the middle of
// writing the state, several times, and checks that the state file always
// decodes strictly and never loses a completed write.
func TestCrashKillDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	st := NewStore(filepath.Join(t.TempDir(), "d"), nil)
	id, _, err := st.Start("crash?", nil)
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for round := range 5 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+st.Dir()+"|"+id)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(60+round*37) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		s, err := st.Load(id)
		if err != nil {
			t.Fatalf("round %d: state broken after SIGKILL: %v", round, err)
		}
		if n := len(s.SurfacedQuestions); n < last {
			t.Fatalf("round %d: %d writes survive, fewer than the %d before", round, n, last)
		}
		last = len(s.SurfacedQuestions)
	}
	if last == 0 {
		t.Fatal("the child never completed a write; the test proves nothing")
	}
	t.Logf("%d completed writes across 5 kills", last)
}

// TestTwoProcessesLoseNothing runs two writer processes against one
// deliberation at once: the per-file lock keeps every update.
func TestTwoProcessesLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	st := NewStore(filepath.Join(t.TempDir(), "d"), nil)
	id, _, err := st.Start("two writers?", nil)
	if err != nil {
		t.Fatal(err)
	}
	const each = 40
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+st.Dir()+"|"+id+"|"+strconv.Itoa(each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.SurfacedQuestions); got != 2*each {
		t.Errorf("%d updates kept, want %d", got, 2*each)
	}
}
