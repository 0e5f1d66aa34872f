package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
)

// TestBrowserCommands reads $BROWSER as the convention has it: a
// colon-separated list, arguments split at spaces, %s replaced by the URL
// (else the URL appended), %% a literal '%'.
func TestBrowserCommands(t *testing.T) {
	const url = "http://127.0.0.1:8080/tok/"
	tests := []struct {
		env  string
		want [][]string
	}{
		{"firefox", [][]string{{"firefox", url}}},
		{"/usr/bin/true --new-window %s", [][]string{{"/usr/bin/true", "--new-window", url}}},
		{"w3m:lynx", [][]string{{"w3m", url}, {"lynx", url}}},
		{"nope --x %s:chromium --app=%s", [][]string{{"nope", "--x", url}, {"chromium", "--app=" + url}}},
		{"open -a  Safari ", [][]string{{"open", "-a", "Safari", url}}},
		{"b --pct=100%% %s", [][]string{{"b", "--pct=100%", url}}},
		{"b --pct=100%%", [][]string{{"b", "--pct=100%", url}}},
		{"::  :x", [][]string{{"x", url}}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := browserCommands(tt.env, url); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("browserCommands(%q) = %q; want %q", tt.env, got, tt.want)
		}
	}
}

// openRun is one `elicit form open --no-browser` run in this process: the
// address it printed, and its exit code and stdout once it ends.
type openRun struct {
	url  chan string
	exit chan int
	out  bytes.Buffer
}

// printedURL is a stderr that hands on the address form open prints.
type printedURL struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	url  chan string
	sent bool
}

func (w *printedURL) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := regexp.MustCompile(`open (http://\S+)\n`).FindStringSubmatch(w.buf.String()); m != nil && !w.sent {
		w.url <- m[1]
		w.sent = true
	}
	return len(p), nil
}

func startOpen(t *testing.T, args ...string) *openRun {
	t.Helper()
	r := &openRun{url: make(chan string, 1), exit: make(chan int, 1)}
	stderr := &printedURL{url: r.url}
	go func() {
		r.exit <- Run(append([]string{"form", "open", "--no-browser"}, args...), strings.NewReader(""), &r.out, stderr)
	}()
	return r
}

const nameForm = `{"title": "Who", "fields": [{"id": "name", "text": "Your name?", "type": "text_input"}]}`

// pageURL is the page's own address from the one form open printed.
func pageURL(t *testing.T, printed string) string {
	t.Helper()
	return printed
}

// TestFormOpenSubmissionRacingTheTimeout: a submission in flight when
// --timeout ends the wait is either taken (200, the command prints that
// response, logs it and exits 0) or refused (409, the command prints the
// cancel and exits 3), never confirmed to the page and then dropped. Each
// trial sends the submission's headers and first half early and its rest
// at a moment around the deadline, so the server is inside the handler
// when the time runs out.
func TestFormOpenSubmissionRacingTheTimeout(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	t.Setenv("ELICIT_HOME", home)
	t.Setenv("ELICIT_LOG", "")
	file := filepath.Join(dir, "who.json")
	if err := os.WriteFile(file, []byte(nameForm), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := form.Parse([]byte(nameForm))
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 300 * time.Millisecond
	taken, refused := 0, 0
	for trial := range 16 {
		body, _ := json.Marshal(map[string]any{widget.Marker: true, "form_id": widget.FormID(f), "title": f.Title,
			"answers": map[string]any{"name": fmt.Sprintf("person %d", trial)}})
		start := time.Now()
		run := startOpen(t, file, "--timeout", timeout.String())
		page, err := url.Parse(pageURL(t, <-run.url))
		if err != nil {
			t.Fatal(err)
		}
		conn, err := net.Dial("tcp", page.Host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %ssubmit HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			page.Path, page.Host, len(body), body[:len(body)/2])
		// The rest from 80 ms before the deadline to 80 ms after it.
		time.Sleep(time.Until(start.Add(timeout - 80*time.Millisecond + time.Duration(trial)*10*time.Millisecond)))
		conn.Write(body[len(body)/2:])
		status := 0
		var reply map[string]any
		if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
			status = resp.StatusCode
			_ = json.NewDecoder(resp.Body).Decode(&reply)
		}
		conn.Close()
		exit := <-run.exit
		var out map[string]any
		_ = json.Unmarshal(run.out.Bytes(), &out)
		log, _ := os.ReadFile(filepath.Join(home, "log", "journal.jsonl"))
		switch {
		case status == http.StatusOK:
			taken++
			id, _ := reply["response_id"].(string)
			if exit != 0 || out["response_id"] != id || id == "" || !bytes.Contains(log, []byte(`"`+id+`"`)) {
				t.Errorf("trial %d: the page was told %s was taken, but the command exited %d printing %s (logged: %v)",
					trial, id, exit, run.out.String(), id != "" && bytes.Contains(log, []byte(id)))
			}
		default:
			refused++
			if exit != 3 || out["action"] != "cancel" {
				t.Errorf("trial %d: the page got %d %v, but the command exited %d printing %s", trial, status, reply, exit, run.out.String())
			}
			if status != 0 && status != http.StatusConflict {
				t.Errorf("trial %d: a submission the command did not take got %d %v, want 409", trial, status, reply)
			}
		}
	}
	t.Logf("%d submissions taken, %d refused", taken, refused)
}
