//go:build linux

package deliberation

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestProcessAliveZombie: a consultation whose process was killed but not
// yet reaped (a zombie, as a background worker killed with kill -9 is
// until init waits for it) is interrupted, not running: status and wait
// agree from the moment of the kill.
func TestProcessAliveZombie(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	c := &Consultation{Consultant: "codex", PID: pid, ProcStart: procStart(pid)}
	if c.ProcStart == "" || !c.Alive() {
		t.Fatalf("running process %d: start %q, alive %v", pid, c.ProcStart, c.Alive())
	}
	if v := c.View(time.Now()); v.Status != ConsultRunning {
		t.Fatalf("running process: status %s", v.Status)
	}
	cmd.Process.Kill()
	// Not waited for: it stays a zombie until cmd.Wait.
	deadline := time.Now().Add(10 * time.Second)
	for !isZombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d never became a zombie", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if c.Alive() {
		t.Error("a zombie is taken for a running process")
	}
	if v := c.View(time.Now()); v.Status != ConsultInterrupted {
		t.Errorf("zombie: status %s, want %s", v.Status, ConsultInterrupted)
	}
	if !isZombie(pid) {
		t.Fatal("reaped during the test: it proved nothing")
	}
}

func isZombie(pid int) bool {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := strings.LastIndexByte(string(data), ')')
	return i > 0 && strings.HasPrefix(string(data[i+1:]), " Z")
}
