package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// pageURL opens a one-time address form open printed or gave the
// browser and returns the page's own address it leads to.
func pageURL(t *testing.T, printed string) string {
	t.Helper()
	code, location := openOnce(t, printed)
	if code != http.StatusSeeOther {
		t.Fatalf("GET %s = %d, want 303 to the page", printed, code)
	}
	return location
}

func openOnce(t *testing.T, u string) (int, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

// TestFormOpenBrowserCommandLine: the address on the browser's command
// line (a real process, as $BROWSER names it) does not carry the page's
// token and works once: a local user who read it from ps after the
// browser opened it gets 403, and cannot post answers with it; the page
// it led to takes the answer.
func TestFormOpenBrowserCommandLine(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	t.Setenv("ELICIT_HOME", home)
	t.Setenv("ELICIT_LOG", "")
	file, argv := filepath.Join(dir, "who.json"), filepath.Join(dir, "argv")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(file, []byte(nameForm), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+argv+".tmp && mv "+argv+".tmp "+argv+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", browser)
	var out, stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- Run([]string{"form", "open", file, "--timeout", "1m"}, strings.NewReader(""), &out, &syncWriter{w: &stderr})
	}()
	var opened string
	for deadline := time.Now().Add(10 * time.Second); opened == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the browser was not started")
		}
		data, _ := os.ReadFile(argv)
		opened = strings.TrimSpace(string(data))
	}
	page := pageURL(t, opened) // the browser opens it
	token := strings.Trim(must(url.Parse(page)).Path, "/")
	if len(token) != 43 || strings.Contains(opened, token) {
		t.Fatalf("the browser was given %s, and the page is %s", opened, page)
	}
	// Someone who read the command line comes second.
	if code, _ := openOnce(t, opened); code != http.StatusForbidden {
		t.Errorf("the browser's address used again = %d, want 403", code)
	}
	f := must(form.Parse([]byte(nameForm)))
	answer, _ := json.Marshal(map[string]any{widget.Marker: true, "form_id": widget.FormID(f), "title": f.Title, "answers": map[string]any{"name": "mallory"}})
	code := strings.TrimPrefix(must(url.Parse(opened)).Path, "/open/")
	base := "http://" + must(url.Parse(opened)).Host
	for _, u := range []string{opened + "/submit", base + "/" + code + "/submit", base + "/submit"} {
		resp, err := http.Post(u, "application/json", bytes.NewReader(answer))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			t.Errorf("POST %s with what the command line showed = %d, want it refused", u, resp.StatusCode)
		}
	}
	// The person's page takes the answer.
	answer, _ = json.Marshal(map[string]any{widget.Marker: true, "form_id": widget.FormID(f), "title": f.Title, "answers": map[string]any{"name": "alice"}})
	resp, err := http.Post(page+"submit", "application/json", bytes.NewReader(answer))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-exit; got != 0 || resp.StatusCode != 200 || !strings.Contains(out.String(), `"name": "alice"`) {
		t.Errorf("the page's answer = %d; exit %d, stdout %s", resp.StatusCode, got, out.String())
	}
	if strings.Contains(stderr.String(), token) {
		t.Errorf("stderr shows the page's token: %s", stderr.String())
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
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
