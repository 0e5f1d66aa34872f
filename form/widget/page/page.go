package page

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

// ErrNoAnswer is returned when the form was not answered: the person
// pressed Cancel, or the context ended (Ctrl-C, the timeout).
var ErrNoAnswer = errors.New("the form was not answered")

// maxBody caps a submission (1 MiB).
const maxBody = 1 << 20

// Options configures Serve. A nil *Options means defaults.
type Options struct {
	// Port to listen on at 127.0.0.1; 0 picks a free one.
	Port int
	// TemplateID is copied into the response.
	TemplateID string
	// Ready is called once the server listens with an address to print
	// for the person: a one-time address (its code works once, for as
	// long as the page is open) that leads the browser to the page.
	Ready func(url string)
	// Open, when set, is called after Ready with another one-time
	// address, for a browser started on it: its code works once and only
	// for the first minutes (browserCodeTTL), as a browser's command line
	// can be read by every local user.
	Open func(url string)
	// Random supplies the token; default crypto/rand.
	Random io.Reader
}

//go:embed assets
var assetFS embed.FS

// pageTemplate is assets/page.tmpl, parsed once on first use.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(assetFS, "assets/page.tmpl"))
})

// pageJS is the page's own script, which the template writes as it is.
var pageJS = sync.OnceValue(func() template.JS {
	data, err := assetFS.ReadFile("assets/page.js")
	if err != nil {
		panic("page: missing embedded page.js")
	}
	return template.JS(data)
})

// HTML is the whole page for f: the widget with a Cancel button and the
// script that sends the answers to the server that served it.
func HTML(f *form.Form) string {
	var b strings.Builder
	err := pageTemplate().Execute(&b, struct {
		Title  string
		Widget template.HTML
		JS     template.JS
	}{f.Title, template.HTML(widget.Render(f, &widget.Options{Cancel: true}).HTML), pageJS()})
	if err != nil { // the template and the types it is given are fixed
		panic("page: " + err.Error())
	}
	return b.String()
}

// Serve shows f as a web page on 127.0.0.1 behind a one-time token and
// waits for the answer. Each submission is validated with form.Collect; a
// failed one goes back to the page, which shows the problems beside their
// fields. Serve returns the validated response, or ErrNoAnswer when the
// person cancels or ctx ends. Requests without the token, or with a Host or
// Origin other than the page's own, get 403.
func Serve(ctx context.Context, f *form.Form, opts *Options) (*form.Response, error) {
	if opts == nil {
		opts = &Options{}
	}
	token, err := newToken(opts.Random)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port)))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", opts.Port, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	s := &server{form: f, token: token, port: port, templateID: opts.TemplateID, html: HTML(f), done: make(chan outcome, 1)}
	printed, err := s.newCode(opts.Random, time.Time{})
	if err != nil {
		ln.Close()
		return nil, err
	}
	var browser string
	if opts.Open != nil {
		if browser, err = s.newCode(opts.Random, time.Now().Add(browserCodeTTL)); err != nil {
			ln.Close()
			return nil, err
		}
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
	go func() { _ = srv.Serve(ln) }()
	if opts.Ready != nil {
		opts.Ready(s.codeURL(printed))
	}
	if opts.Open != nil {
		opts.Open(s.codeURL(browser))
	}
	var out outcome
	select {
	case out = <-s.done:
	case <-ctx.Done():
		// The end of ctx and a submission in flight race through finish:
		// exactly one wins, and a submission that lost is told so (409),
		// so an answer the page confirmed is the answer returned.
		s.finish(outcome{})
		out = <-s.done
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut) // lets the last answer reach the page
	if out.response == nil {
		return nil, ErrNoAnswer
	}
	return out.response, nil
}

// newToken is 32 random bytes, base64url: unguessable, and safe in a path.
func newToken(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	var b [32]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", fmt.Errorf("make the page's token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// browserCodeTTL is how long the browser's one-time code works.
var browserCodeTTL = 2 * time.Minute

// code is a one-time code that leads to the page: GET /open/CODE, once,
// before expires (zero: while the page is open), is redirected to the
// page's address, which carries the token; the token itself is never
// printed or put on a command line.
type code struct {
	value   string
	expires time.Time
	used    bool
}

// newCode adds a one-time code.
func (s *server) newCode(r io.Reader, expires time.Time) (string, error) {
	v, err := newToken(r)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes = append(s.codes, &code{value: v, expires: expires})
	return v, nil
}

func (s *server) codeURL(code string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/open/%s", s.port, code)
}

// exchange answers GET /open/CODE: the first use of a live code is
// redirected to the page; a second use, an expired code or an unknown
// one gets 403.
func (s *server) exchange(w http.ResponseWriter, r *http.Request, value string) {
	if r.Method != http.MethodGet {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	s.mu.Lock()
	var found *code
	for _, c := range s.codes {
		if subtle.ConstantTimeCompare([]byte(value), []byte(c.value)) == 1 {
			found = c
		}
	}
	used, expired := found != nil && found.used, found != nil && !found.expires.IsZero() && time.Now().After(found.expires)
	if found != nil {
		found.used = true
	}
	s.mu.Unlock()
	switch {
	case found == nil:
		http.Error(w, "forbidden: this page needs the address elicit printed", http.StatusForbidden)
	case used:
		http.Error(w, "forbidden: this one-time address was already used; go on in the tab it opened. If you did not open it, someone else on this machine may have: stop elicit (Ctrl-C) and run it again", http.StatusForbidden)
	case expired:
		http.Error(w, "forbidden: this one-time address has expired; open the address elicit printed", http.StatusForbidden)
	default:
		http.Redirect(w, r, s.url(), http.StatusSeeOther)
	}
}

// outcome is how the page ended: a response, or nil for cancel.
type outcome struct{ response *form.Response }

type server struct {
	form       *form.Form
	token      string
	port       int
	templateID string
	html       string
	mu         sync.Mutex
	codes      []*code
	finished   bool
	answered   bool // a response ended the page (else a cancel did)
	done       chan outcome
}

func (s *server) url() string {
	return fmt.Sprintf("http://127.0.0.1:%d/%s/", s.port, s.token)
}

// ServeHTTP checks every request before anything else: the Host must be the
// page's own (no DNS rebinding), an Origin must be the page's own (no other
// site may post), and the path must start with the token.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if !s.ownHost(r.Host) || !s.ownOrigin(r.Header.Get("Origin")) || r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/")
	tok, sub, _ := strings.Cut(rest, "/")
	if tok == "open" && ok {
		s.exchange(w, r, sub)
		return
	}
	if !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		http.Error(w, "forbidden: this page needs the address elicit printed, token included", http.StatusForbidden)
		return
	}
	switch {
	case sub == "" && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"):
		s.page(w)
	case sub == "" && r.Method == http.MethodGet:
		http.Redirect(w, r, r.URL.Path+"/", http.StatusFound)
	case sub == "submit" && r.Method == http.MethodPost:
		s.submit(w, r)
	case sub == "cancel" && r.Method == http.MethodPost:
		if !s.finish(outcome{}) {
			writeJSON(w, http.StatusConflict, failure(s.form, problem.List{{Message: s.lost()}}))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": false, "action": "cancel"})
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func (s *server) ownHost(host string) bool {
	p := strconv.Itoa(s.port)
	return host == "127.0.0.1:"+p || host == "localhost:"+p
}

func (s *server) ownOrigin(origin string) bool {
	p := strconv.Itoa(s.port)
	return origin == "" || origin == "http://127.0.0.1:"+p || origin == "http://localhost:"+p
}

// contentSecurity lets the page run only its own inline script and styles
// and talk only to this server.
const contentSecurity = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *server) page(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", contentSecurity)
	h.Set("X-Frame-Options", "DENY")
	_, _ = io.WriteString(w, s.html)
}

// submit validates one submission: the widget's postback, with collect's
// problems sent back by field, or the response, which ends the page.
func (s *server) submit(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeJSON(w, http.StatusUnsupportedMediaType, failure(s.form, problem.List{{Message: "send the answers as application/json"}}))
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, failure(s.form, problem.List{{Message: fmt.Sprintf("the answers are over %s, more than a submission may have: shorten the longest answers", infile.Size(maxBody))}}))
		return
	}
	resp, err := s.collect(data)
	if err != nil {
		probs, ok := err.(problem.List)
		if !ok {
			probs = problem.List{{Message: err.Error()}}
		}
		writeJSON(w, http.StatusUnprocessableEntity, failure(s.form, probs))
		return
	}
	if !s.finish(outcome{response: resp}) {
		writeJSON(w, http.StatusConflict, failure(s.form, problem.List{{Message: s.lost()}}))
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *server) collect(data []byte) (*form.Response, error) {
	doc, err := form.DecodeJSON(data, "answers", false)
	if err != nil {
		return nil, err
	}
	if probs := doc.Problems(""); len(probs) > 0 {
		return nil, probs
	}
	m, _ := doc.Value.(map[string]any)
	if !widget.IsPostback(m) {
		return nil, problem.List{{Path: widget.Marker, Message: "missing (the page posts the widget's postback)"}}
	}
	answers, err := widget.ReadPostback(s.form, m)
	if err != nil {
		return nil, err
	}
	return form.Collect(s.form, answers, &form.CollectOptions{TemplateID: s.templateID})
}

// finish ends the page once; it reports whether this call did. It is the
// one place a submission, the page's Cancel and the end of Serve's context
// (Ctrl-C, the timeout) decide which of them ends the page.
func (s *server) finish(o outcome) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return false
	}
	s.finished, s.answered = true, o.response != nil
	s.done <- o
	return true
}

// lost says why a request that came after the page ended was not taken.
func (s *server) lost() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.answered {
		return "this form was already answered: these answers were not taken"
	}
	return "elicit stopped waiting for this form (cancelled, or its time ran out): these answers were not taken"
}

// failure is the answer to a submission collect refused: every problem,
// and the same sorted by field for the page.
func failure(f *form.Form, probs problem.List) map[string]any {
	return map[string]any{"success": false, "problems": probs.Strings(), "fields": widget.FieldProblems(f, probs)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
