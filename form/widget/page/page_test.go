package page

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/google/go-cmp/cmp"
)

// started is a page being served, with Serve's result once it returns.
type started struct {
	url    string // the page's own address, token included
	code   string // the one-time address printed (used up by start)
	open   string // the browser's one-time address (unused)
	form   *form.Form
	result chan result
	cancel context.CancelFunc
}

type result struct {
	resp *form.Response
	err  error
}

func start(t *testing.T, data []byte) *started {
	t.Helper()
	f := formtest.MustParse(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	s := &started{form: f, result: make(chan result, 1), cancel: cancel}
	ready, open := make(chan string, 1), make(chan string, 1)
	go func() {
		resp, err := Serve(ctx, f, &Options{TemplateID: "tid", Ready: func(u string) { ready <- u }, Open: func(u string) { open <- u }})
		s.result <- result{resp, err}
	}()
	select {
	case s.code = <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the page did not start")
	}
	s.open = <-open
	t.Cleanup(cancel)
	s.url = exchange(t, s.code)
	return s
}

// exchange opens a one-time address and returns where it leads.
func exchange(t *testing.T, code string) string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(code)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("GET %s = %d, want 303 to the page", code, resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

func (s *started) wait(t *testing.T) result {
	t.Helper()
	select {
	case r := <-s.result:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	return result{}
}

// do sends a request; header sets extra headers ("Host" sets the host).
func do(t *testing.T, method, u, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func postback(f *form.Form, answers map[string]any) string {
	data, _ := json.Marshal(map[string]any{widget.Marker: true, "form_id": widget.FormID(f), "title": f.Title, "answers": answers})
	return string(data)
}

func TestForbidden(t *testing.T) {
	s := start(t, formtest.Bench(t))
	u, _ := url.Parse(s.url)
	base := "http://" + u.Host
	tests := []struct {
		name, method, url string
		header            map[string]string
	}{
		{"no token", "GET", base + "/", nil},
		{"wrong token", "GET", base + "/wrong-token/", nil},
		{"token as a prefix", "GET", strings.TrimSuffix(s.url, "/") + "x/", nil},
		{"submit without the token", "POST", base + "/submit", nil},
		{"foreign host", "GET", s.url, map[string]string{"Host": "evil.example:" + u.Port()}},
		{"foreign host, same port on another name", "GET", s.url, map[string]string{"Host": "127.0.0.2:" + u.Port()}},
		{"foreign origin", "POST", s.url + "submit", map[string]string{"Origin": "http://evil.example"}},
		{"origin on another port", "POST", s.url + "cancel", map[string]string{"Origin": "http://127.0.0.1:1"}},
		{"cross-site fetch", "POST", s.url + "cancel", map[string]string{"Sec-Fetch-Site": "cross-site"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, body := do(t, tt.method, tt.url, "", tt.header); code != http.StatusForbidden {
				t.Errorf("%s %s = %d %q, want 403", tt.method, tt.url, code, body)
			}
		})
	}
	// None of them ended the page.
	if code, _ := do(t, "GET", s.url, "", nil); code != http.StatusOK {
		t.Errorf("the page = %d after the forbidden requests, want 200", code)
	}
}

func TestPage(t *testing.T) {
	s := start(t, formtest.Bench(t))
	req, _ := http.NewRequest("GET", s.url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>Release plan</title>") ||
		!strings.Contains(string(body), `<button type=button class=cn>Cancel</button>`) {
		t.Errorf("GET %s = %d:\n%s", s.url, resp.StatusCode, body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	if code, _ := do(t, "GET", strings.TrimSuffix(s.url, "/"), "", nil); code != http.StatusFound {
		t.Errorf("the address without its slash = %d, want a redirect", code)
	}
	if code, _ := do(t, "GET", s.url+"nothing", "", nil); code != http.StatusNotFound {
		t.Errorf("an unknown path = %d, want 404", code)
	}
}

func TestSubmit(t *testing.T) {
	s := start(t, formtest.Bench(t))
	// A failed submission: problems by field, and the page stays.
	code, body := do(t, "POST", s.url+"submit", postback(s.form, map[string]any{"budget": 99, "track": "alpha"}), nil)
	var fail struct {
		Success  bool              `json:"success"`
		Problems []string          `json:"problems"`
		Fields   map[string]string `json:"fields"`
	}
	if err := json.Unmarshal([]byte(body), &fail); err != nil || code != http.StatusUnprocessableEntity {
		t.Fatalf("submit = %d %s", code, body)
	}
	want := map[string]string{
		"track":     `"alpha" is not one of the options ("stable", "beta", "nightly")`,
		"platforms": "Choose at least one.",
		"budget":    "99 is above the maximum 40",
		"ship_date": "Pick a date.",
	}
	if diff := cmp.Diff(want, fail.Fields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if len(fail.Problems) != 4 || fail.Success {
		t.Errorf("problems = %v", fail.Problems)
	}
	// Answers for another form are refused.
	other := formtest.MustParse(t, formtest.Forms(t)["scope"])
	if code, body := do(t, "POST", s.url+"submit", postback(other, map[string]any{}), nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "another form") {
		t.Errorf("another form's postback = %d %s", code, body)
	}
	// Not JSON.
	req, _ := http.NewRequest("POST", s.url+"submit", strings.NewReader("track=beta"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a form-encoded post = %v, %v", resp, err)
	}
	// Too large.
	big := bytes.Repeat([]byte("x"), maxBody+1)
	if code, body := do(t, "POST", s.url+"submit", `{"a":"`+string(big)+`"}`, nil); code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(body, "the answers are over 1 MiB, more than a submission may have: shorten the longest answers") {
		t.Errorf("a large post = %d %s, want 413 saying 1 MiB", code, body)
	}
	// A corrected one ends the page with the response.
	good := map[string]any{"track": "beta", "platforms": []string{"linux"}, "budget": 12, "ship_date": "2026-05-04"}
	code, body = do(t, "POST", s.url+"submit", postback(s.form, good), nil)
	if code != http.StatusOK || !strings.Contains(body, `"success":true`) {
		t.Fatalf("the corrected submission = %d %s", code, body)
	}
	r := s.wait(t)
	if r.err != nil || r.resp.TemplateID != "tid" {
		t.Fatalf("Serve = %+v, %v", r.resp, r.err)
	}
	wantResp := map[string]any{"track": "beta", "platforms": []string{"linux"}, "budget": 12.0, "ship_date": "2026-05-04"}
	if diff := cmp.Diff(wantResp, r.resp.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func TestCancel(t *testing.T) {
	s := start(t, formtest.Bench(t))
	if code, body := do(t, "POST", s.url+"cancel", "{}", nil); code != 200 || !strings.Contains(body, `"action":"cancel"`) {
		t.Errorf("cancel = %d %s", code, body)
	}
	if r := s.wait(t); !errors.Is(r.err, ErrNoAnswer) {
		t.Errorf("Serve after cancel = %v, want ErrNoAnswer", r.err)
	}
}

func TestContextEnds(t *testing.T) {
	s := start(t, formtest.Bench(t))
	s.cancel()
	if r := s.wait(t); !errors.Is(r.err, ErrNoAnswer) {
		t.Errorf("Serve after the context ended = %v, want ErrNoAnswer", r.err)
	}
	if _, err := http.Get(s.url); err == nil {
		t.Error("the server still answers after Serve returned")
	}
}

func TestTokensDiffer(t *testing.T) {
	a, _ := newToken(nil)
	b, _ := newToken(nil)
	if a == b || len(a) != 43 {
		t.Errorf("tokens %q and %q", a, b)
	}
}

// TestPort: the page listens on the port asked for, at 127.0.0.1 only.
func TestPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	f := formtest.MustParse(t, formtest.Bench(t))
	go func() {
		_, err := Serve(ctx, f, &Options{Port: port, Ready: func(u string) { ready <- u }})
		done <- err
	}()
	select {
	case u := <-ready:
		if !strings.HasPrefix(u, fmt.Sprintf("http://127.0.0.1:%d/", port)) {
			t.Errorf("address %s, want port %d", u, port)
		}
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	// The port is taken now: a second page on it fails with a clear error.
	_, err = Serve(ctx, f, &Options{Port: port})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("listen on 127.0.0.1:%d", port)) {
		t.Errorf("a second page on the same port: %v", err)
	}
	cancel()
	<-done
}

// TestHTML pins the page around the benchmark form's widget
// (testdata/golden/frame.html, with the widget, which the widget's golden
// files pin, and page.js as placeholders; -update rewrites it) and checks
// that a title cannot end the <title> element or open a tag.
func TestHTML(t *testing.T) {
	f := formtest.MustParse(t, formtest.Bench(t))
	html := HTML(f)
	for _, part := range []struct{ text, placeholder string }{
		{widget.Render(f, &widget.Options{Cancel: true}).HTML, "WIDGET\n"},
		{string(pageJS()), "PAGE_JS"},
	} {
		if strings.Count(html, part.text) != 1 {
			t.Fatalf("the page does not hold %s once:\n%s", part.placeholder, html)
		}
		html = strings.Replace(html, part.text, part.placeholder, 1)
	}
	golden.Check(t, "frame.html", []byte(html))
	tests := []struct{ title, want string }{
		{"Release plan", "<title>Release plan</title>"},
		{`</title><script>window.x=1</script>`, "<title>&lt;/title&gt;&lt;script&gt;window.x=1&lt;/script&gt;</title>"},
		{`"'&+ <!--`, "<title>&#34;&#39;&amp;&#43; &lt;!--</title>"},
	}
	for _, tt := range tests {
		f := &form.Form{Title: tt.title, Fields: []form.Field{{ID: "ok", Text: "Ready?", Type: form.Boolean}}}
		if html := HTML(f); !strings.Contains(html, "\n"+tt.want+"\n") || strings.Count(html, "<title>") != 1 {
			t.Errorf("HTML with title %q has no %q:\n%s", tt.title, tt.want, html)
		}
	}
}

// TestOneTimeAddresses: the addresses printed and given to the browser
// carry one-time codes, not the page's token: the first GET of each is
// redirected to the page, a second gets 403 saying it was used (someone
// else may have), the browser's expires, and neither posts answers.
func TestOneTimeAddresses(t *testing.T) {
	defer func(ttl time.Duration) { browserCodeTTL = ttl }(browserCodeTTL)
	browserCodeTTL = 300 * time.Millisecond
	s := start(t, formtest.Bench(t))
	token := strings.Trim(strings.TrimPrefix(s.url, "http://"+must(url.Parse(s.url)).Host), "/")
	if len(token) != 43 || strings.Contains(s.code, token) || strings.Contains(s.open, token) || s.code == s.open {
		t.Fatalf("addresses %s and %s for the page %s", s.code, s.open, s.url)
	}
	good := postback(s.form, map[string]any{"track": "beta", "platforms": []string{"linux"}, "budget": 12, "ship_date": "2026-05-04"})
	tests := []struct {
		name, method, url, body string
		code                    int
		says                    string
	}{
		{"the printed address again", "GET", s.code, "", 403, "already used"},
		{"its code posting answers", "POST", s.code + "/submit", good, 404, ""},
		{"its code as the token", "POST", strings.Replace(s.code, "/open/", "/", 1) + "/submit", good, 403, ""},
		{"the browser's code posting answers", "POST", strings.Replace(s.open, "/open/", "/", 1) + "/submit", good, 403, ""},
		{"a POST to the browser's address", "POST", s.open, good, 404, ""},
		{"an unknown code", "GET", strings.TrimSuffix(s.open, s.open[len(s.open)-4:]) + "AAAA", "", 403, "the address elicit printed"},
	}
	for _, tt := range tests {
		if code, body := do(t, tt.method, tt.url, tt.body, nil); code != tt.code || !strings.Contains(body, tt.says) {
			t.Errorf("%s: %s %s = %d %q, want %d saying %q", tt.name, tt.method, tt.url, code, body, tt.code, tt.says)
		}
	}
	// The page itself reloads.
	if code, _ := do(t, "GET", s.url, "", nil); code != http.StatusOK {
		t.Errorf("the page = %d on a reload, want 200", code)
	}
	// The browser's code works once, while it is fresh.
	if got := exchange(t, s.open); got != s.url {
		t.Errorf("the browser's address leads to %s, want %s", got, s.url)
	}
	if code, body := do(t, "GET", s.open, "", nil); code != 403 || !strings.Contains(body, "someone else on this machine may have") {
		t.Errorf("the browser's address again = %d %q", code, body)
	}

	late := start(t, formtest.Bench(t))
	time.Sleep(2 * browserCodeTTL)
	if code, body := do(t, "GET", late.open, "", nil); code != 403 || !strings.Contains(body, "expired") {
		t.Errorf("the browser's address after %s = %d %q, want 403 expired", browserCodeTTL, code, body)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
