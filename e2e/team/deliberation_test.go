package team

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx driver
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"
)

// consultant is a command consultant for one deliberation: it answers
// with answer1.txt, answer2.txt, ... of its folder in turn; while the
// folder holds a file named slow it takes a minute and gives nothing (a
// consultation to kill mid-way).
const consultant = `cat >/dev/null
d=$1
if [ -f "$d/slow" ]; then rm -f "$d/slow"; sleep 60; exit 1; fi
n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$d/count"
cat "$d/answer$n.txt"
`

// scenario is the CLI's converging deliberation: three answers, their
// evaluations and the synthesis.
func scenario(t *testing.T) map[string]string {
	t.Helper()
	ar, err := txtar.ParseFile("../../internal/cli/testdata/script/deliberate_converge.txtar")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range ar.Files {
		out[f.Name] = string(f.Data)
	}
	return out
}

// consultantFor writes a consultant's folder (its answers) and gives its
// name for deliberation_send.
func consultantFor(t *testing.T, tm *team, name string, files map[string]string) (spec, dir string) {
	t.Helper()
	dir = filepath.Join(tm.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		f := fmt.Sprintf("answer%d.txt", i)
		os.WriteFile(filepath.Join(dir, f), []byte(files[f]), 0o644)
	}
	return "command:sh " + filepath.Join(tm.dir, "consult.sh") + " " + dir, dir
}

// waitDone waits for the consultation of id, through any replica, and
// returns its outcome.
func waitDone(t *testing.T, cs *mcp.ClientSession, id string) map[string]any {
	t.Helper()
	for range 20 {
		out, err := call(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 20})
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		if out["status"] != "running" {
			return out
		}
	}
	t.Fatalf("the consultation of %s never ended", id)
	return nil
}

// TestE2EDeliberationAcrossReplicas: behind a balancer with no session
// affinity, a 2026-07-28 client (go-sdk) and a 2025-11-25 client (the
// TypeScript SDK) each drive a whole deliberation with a command
// consultant, their calls spread over three replicas on one team
// database; the replica running a consultation is killed mid-way and the
// deliberation finishes through the others, its transcript complete; 200
// clients making 20 calls each at once get their own answers; ben's token
// is refused on ana's deliberation.
func TestE2EDeliberationAcrossReplicas(t *testing.T) {
	tm := startTeamWith(t, func(dir string) []string {
		os.WriteFile(filepath.Join(dir, "consult.sh"), []byte(consultant), 0o755)
		return []string{"--allow-consultant", "command:sh " + filepath.Join(dir, "consult.sh") + " *"}
	})
	files := scenario(t)
	began := time.Now()
	spec, cdir := consultantFor(t, tm, "ana", files)

	ana := connect(t, tm.url, tm.ana, "", nil)
	if v := ana.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("ana's client negotiated %s, want 2026-07-28", v)
	}
	out, err := call(t, ana, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?", "facts": []any{"no new infrastructure"}})
	if err != nil {
		t.Fatal(err)
	}
	id := out["id"].(string)
	actions := []string{"critique", "coverage_check", "synthesize"}
	for i, action := range actions {
		n := i + 1
		if n == 2 { // this consultation's replica dies mid-way
			os.WriteFile(filepath.Join(cdir, "slow"), nil, 0o644)
		}
		if out, err = call(t, ana, "deliberation_send", map[string]any{"id": id, "consultant": spec}); err != nil || out["status"] != "running" {
			t.Fatalf("send %d: %v %v", n, out, err)
		}
		if n == 2 {
			for deadline := time.Now().Add(20 * time.Second); fileExists(filepath.Join(cdir, "slow")); time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the consultant never started")
				}
			}
			killRunner(t, tm, ana, id)
			out = waitDone(t, ana, id)
			if out["status"] != "interrupted" {
				t.Fatalf("after its replica was killed the consultation reads %v, want interrupted", out)
			}
			if out, err = call(t, ana, "deliberation_send", map[string]any{"id": id, "consultant": spec}); err != nil || out["status"] != "running" {
				t.Fatalf("send again after the kill: %v %v", out, err)
			}
		}
		if out = waitDone(t, ana, id); out["status"] != "done" {
			t.Fatalf("consultation %d: %v", n, out)
		}
		var eval map[string]any
		json.Unmarshal([]byte(files[fmt.Sprintf("eval%d.json", n)]), &eval)
		if out, err = call(t, ana, "deliberation_evaluate", map[string]any{"id": id, "evaluation": eval}); err != nil || out["action"] != action {
			t.Fatalf("evaluate %d: %v %v, want action %s", n, out, err, action)
		}
	}
	if out, err = call(t, ana, "deliberation_synthesize", map[string]any{"id": id, "answer": "Yes: honour Retry-After; no fixed retry cap."}); err != nil || out["exit_reason"] != "converged" {
		t.Fatalf("synthesize: %v %v", out, err)
	}
	checkTranscript(t, tm, id)
	t.Logf("the go-sdk client's deliberation took %s", time.Since(began).Round(time.Millisecond))

	// Ben's token on ana's deliberation.
	ben := connect(t, tm.url, tm.ben, "2025-11-25", nil)
	for _, tool := range []string{"deliberation_status", "deliberation_send"} {
		if out, err := call(t, ben, tool, map[string]any{"id": id}); err == nil || !strings.Contains(fmt.Sprint(out), "started by another user") {
			t.Errorf("ben's %s on ana's deliberation: %v %v, want it refused", tool, out, err)
		}
	}

	// The TypeScript SDK (2025-11-25, a session on one replica, its calls
	// answered by all three).
	tsSpec, _ := consultantFor(t, tm, "ben", files)
	began = time.Now()
	node(t, tm, tsSpec, files)
	t.Logf("the TypeScript client's deliberation took %s", time.Since(began).Round(time.Millisecond))

	began = time.Now()
	manyClients(t, tm)
	t.Logf("200 clients × 20 calls took %s", time.Since(began).Round(time.Millisecond))

	spread := replicasOf(t, tm.accessLog)
	for v, n := range spread {
		if n < 2 {
			t.Errorf("the %s calls reached %d replicas, want them spread", v, n)
		}
	}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// killRunner kills the replica running the consultation of id (its
// process is the consultation's, as status says) with SIGKILL: no chance
// to record anything.
func killRunner(t *testing.T, tm *team, cs *mcp.ClientSession, id string) {
	t.Helper()
	out, err := call(t, cs, "deliberation_status", map[string]any{"id": id})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := out["consultation"].(map[string]any)
	pid, _ := c["pid"].(float64)
	for _, r := range tm.replicas {
		if r.cmd.Process.Pid == int(pid) {
			r.cmd.Process.Signal(syscall.SIGKILL)
			return
		}
	}
	t.Fatalf("no replica runs the consultation %v", c)
}

// checkTranscript reads the deliberation's transcript from the team
// database: every step is there once, the interrupted consultation too.
func checkTranscript(t *testing.T, tm *team, id string) {
	t.Helper()
	db, err := sql.Open("pgx", tm.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var data []byte
	if err := db.QueryRow(`SELECT data FROM deliberation_files WHERE name = $1`, "codex-ask-transcript-"+id+".jsonl").Scan(&data); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var interrupted int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Kind string          `json:"kind"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a transcript line does not parse: %v: %s", err, line)
		}
		kinds[r.Kind]++
		if r.Kind == "consult_end" && strings.Contains(string(r.Data), `"interrupted"`) {
			interrupted++
		}
	}
	want := map[string]int{"start": 1, "response": 3, "evaluation": 3, "consult_begin": 4}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("the transcript has %d %s records, want %d (all: %v)", kinds[k], k, n, kinds)
		}
	}
	if interrupted != 1 {
		t.Errorf("the transcript records %d interrupted consultations, want 1 (all: %v)", interrupted, kinds)
	}
}

// node drives a whole deliberation with the TypeScript SDK.
func node(t *testing.T, tm *team, spec string, files map[string]string) {
	t.Helper()
	script, _ := filepath.Abs("../node/team-deliberation.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		need(t, "the TypeScript SDK (npm ci in e2e/node)", err)
	}
	evals, _ := json.Marshal([]string{files["eval1.json"], files["eval2.json"], files["eval3.json"]})
	cmd := exec.Command("node", script, tm.url, tm.ben, spec, string(evals))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "converged") {
		t.Fatalf("the TypeScript client's deliberation did not converge:\n%s", out)
	}
}

// manyClients: 200 clients (on protocol 2026-07-28) make 20 calls each at
// once: each starts a deliberation of its own and reads it back, and
// renders a form with its own slot; every answer is its own.
func manyClients(t *testing.T, tm *team) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 200*20)
	for c := range 200 {
		wg.Go(func() {
			// 2026-07-28: a 2025-11-25 client's standalone event stream
			// can land on a replica that does not hold its session (to do)
			version := ""
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "many", Version: "0"}, nil).Connect(context.Background(), transport(tm.url, tm.ana), &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				errs <- fmt.Errorf("client %d: connect: %v", c, err)
				return
			}
			defer cs.Close()
			q := fmt.Sprintf("Should client %d of the load test keep its own deliberation?", c)
			out, err := call(t, cs, "deliberation_start", map[string]any{"question": q, "quick": true})
			if err != nil {
				errs <- fmt.Errorf("client %d: start: %v", c, err)
				return
			}
			id := out["id"].(string)
			for i := 1; i < 20; i++ {
				if i%2 == 0 {
					out, err := call(t, cs, "deliberation_status", map[string]any{"id": id})
					if err != nil || out["question"] != q {
						errs <- fmt.Errorf("client %d call %d: status of %s: %v %.200v", c, i, id, err, out["question"])
					}
					continue
				}
				slot := fmt.Sprintf("client-%d-call-%d", c, i)
				out, err := call(t, cs, "elicitation_render_form", map[string]any{"template": "session-contract", "slots": map[string]any{"project": slot}})
				if raw, _ := json.Marshal(out); err != nil || !strings.Contains(string(raw), slot) {
					errs <- fmt.Errorf("%s: %v %.200s", slot, err, raw)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 10 {
			t.Error(err)
		}
	}
	if n > 10 {
		t.Errorf("... and %d more", n-10)
	}
}

// replicasOf counts, per protocol version, the replicas the access log
// shows answering.
func replicasOf(t *testing.T, accessLog string) map[string]int {
	t.Helper()
	data, _ := os.ReadFile(accessLog)
	seen := map[string]map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "200" {
			if seen[f[1]] == nil {
				seen[f[1]] = map[string]bool{}
			}
			seen[f[1]][f[0]] = true
		}
	}
	out := map[string]int{}
	for v, rs := range seen {
		if v != "-" {
			out[v] = len(rs)
		}
	}
	return out
}
