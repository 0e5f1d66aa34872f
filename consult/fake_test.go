package consult

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestMain turns the test binary into a fake codex when FAKE_CODEX is set:
// it reads standard input to the end (so a caller that never closes it
// hangs the test), records its arguments and input, prints a recorded event
// stream and exits as told.
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("FAKE_SLEEPER") != "":
		time.Sleep(time.Hour)
	case os.Getenv("FAKE_CODEX") != "":
		os.Exit(fakeCodex())
	}
	os.Exit(m.Run())
}

// fakeCall is what the fake codex records of one call.
type fakeCall struct {
	Args   []string `json:"args"`
	Stdin  string   `json:"stdin"`
	Env    []string `json:"env"`
	Schema string   `json:"schema"` // the --output-schema file's content
}

func fakeCodex() int {
	in, _ := io.ReadAll(os.Stdin)
	if rec := os.Getenv("FAKE_CODEX_RECORD"); rec != "" {
		call := fakeCall{Args: os.Args[1:], Stdin: string(in), Env: os.Environ()}
		for i, a := range call.Args {
			if a == "--output-schema" && i+1 < len(call.Args) {
				schema, _ := os.ReadFile(call.Args[i+1])
				call.Schema = string(schema)
			}
		}
		data, _ := json.Marshal(call)
		os.WriteFile(rec, data, 0o644)
	}
	if pidfile := os.Getenv("FAKE_CODEX_CHILD"); pidfile != "" {
		startSleeper(pidfile)
	}
	gap, _ := time.ParseDuration(os.Getenv("FAKE_CODEX_GAP"))
	name := os.Getenv("FAKE_CODEX")
	if name == "echo" {
		fmt.Println(`{"type":"thread.started","thread_id":"echo-thread"}`)
		item, _ := json.Marshal(map[string]any{"type": "item.completed", "item": map[string]string{"type": "agent_message", "text": string(in)}})
		fmt.Println(string(item))
		fmt.Println(`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`)
	} else if name != "none" {
		printStream("testdata/streams/"+name+".jsonl", gap)
	}
	if f := os.Getenv("FAKE_CODEX_STDERR"); f != "" {
		data, _ := os.ReadFile("testdata/streams/" + f)
		os.Stderr.Write(data)
	}
	if d, err := time.ParseDuration(os.Getenv("FAKE_CODEX_SLEEP")); err == nil {
		time.Sleep(d)
	}
	code, _ := strconv.Atoi(os.Getenv("FAKE_CODEX_EXIT"))
	return code
}

func printStream(path string, gap time.Duration) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(99)
	}
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		if i < len(data) {
			i++
		}
		os.Stdout.Write(data[:i])
		data = data[i:]
		time.Sleep(gap)
	}
}

// startSleeper starts a grandchild that holds standard output open and
// writes its pid, so a test can check that the whole group was killed.
func startSleeper(pidfile string) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "FAKE_SLEEPER=1", "FAKE_CODEX=")
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil {
		os.Exit(98)
	}
	os.WriteFile(pidfile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
}
