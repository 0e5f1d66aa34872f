package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The defaults of HTTPOptions (docs/limits.md, "elicit serve --http", lists
// them).
const (
	defaultMaxConnections = 256
	defaultMaxSessions    = 1000
	defaultSessionTimeout = 30 * time.Minute
	defaultHeaderTimeout  = 10 * time.Second
	defaultBodyTimeout    = 30 * time.Second
	defaultWriteTimeout   = 30 * time.Second
	defaultIdleTimeout    = 2 * time.Minute
	defaultAuthTimeout    = 5 * time.Second
	// maxRequestBody is the largest request body read: tool arguments are
	// refused past 1 MiB, and the envelope around them is small.
	maxRequestBody = 2 << 20
)

// HTTPOptions configures Streamable HTTP. A nil *HTTPOptions, and each zero
// field, mean the default.
type HTTPOptions struct {
	// Token, when set, must come with every request as "Authorization:
	// Bearer TOKEN".
	Token string
	// Users, when set, replace Token: every request sends one of a team's
	// tokens, and its calls are that person's (ParseUsers).
	Users *Users
	// AllowedOrigins are the browser origins (scheme://host[:port]) allowed
	// besides loopback ones. A request whose Origin header names any other
	// origin is refused with 403, as the MCP specification asks; a request
	// without an Origin header (not from a browser) is not.
	AllowedOrigins []string
	// MaxConnections caps the open connections. A connection past it
	// closes the oldest one that has not sent an authenticated request,
	// else the authenticated one idle the longest; only when every one is
	// authenticated and in a request does it wait. One client (remote
	// address) holds at most a quarter of them unauthenticated, and event
	// streams (GET) at most half; past that a stream is refused with 503.
	MaxConnections int
	// AuthTimeout closes a connection that has not sent an authenticated
	// request (one with the token, when there is one) this long after it
	// was accepted.
	AuthTimeout time.Duration
	// MaxSessions caps the live MCP sessions; past it a new session is
	// refused with 503 until one ends or expires.
	MaxSessions int
	// SessionTimeout ends a session that has had no request for this long;
	// its client starts a new one.
	SessionTimeout time.Duration
	// HeaderTimeout bounds reading a request's headers, BodyTimeout reading
	// its body, WriteTimeout each write of a response (a response stream
	// may stay open, idle, as long as the session lives), IdleTimeout the
	// wait for the next request on a kept-alive connection.
	HeaderTimeout, BodyTimeout, WriteTimeout, IdleTimeout time.Duration
	// Replicas: the server is one of several behind a load balancer that
	// keeps no session affinity. A request of an older client's session
	// that another replica holds is then answered without its session
	// (as a 2026-07-28 request is) instead of refused with 404: every
	// tool works, but a server-to-client request (native elicitation)
	// reaches the client only from the replica holding its session.
	Replicas bool
}

func (o *HTTPOptions) withDefaults() HTTPOptions {
	var out HTTPOptions
	if o != nil {
		out = *o
	}
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&out.SessionTimeout, defaultSessionTimeout)
	def(&out.HeaderTimeout, defaultHeaderTimeout)
	def(&out.BodyTimeout, defaultBodyTimeout)
	def(&out.WriteTimeout, defaultWriteTimeout)
	def(&out.IdleTimeout, defaultIdleTimeout)
	def(&out.AuthTimeout, defaultAuthTimeout)
	if out.MaxConnections <= 0 {
		out.MaxConnections = defaultMaxConnections
	}
	if out.MaxSessions <= 0 {
		out.MaxSessions = defaultMaxSessions
	}
	return out
}

// HTTPHandler serves MCP over Streamable HTTP at /mcp, with the SDK's
// DNS-rebinding protection, Origin validation, the bearer token when one
// is set, time limits on reading a body and on each write, a cap on live
// sessions and their expiry when idle.
func HTTPHandler(s *mcp.Server, opts *HTTPOptions) http.Handler {
	o := opts.withDefaults()
	server := func(*http.Request) *mcp.Server { return s }
	sessions := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{
		SessionTimeout:      o.SessionTimeout,
		MaxRequestBodyBytes: maxRequestBody,
	})
	stateless := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		MaxRequestBodyBytes: maxRequestBody,
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", byProtocol(s, o.Replicas, stateless, sessionCap(s, o.MaxSessions, sessions)))
	var h http.Handler = mux
	h = refuseNullID(h)
	h = streamCap(max(o.MaxConnections/2, 1), h)
	h = deadlines(o.BodyTimeout, o.WriteTimeout, h)
	h = authenticated(h)
	switch {
	case o.Users != nil:
		h = o.Users.require(h)
	case o.Token != "":
		h = bearer(o.Token, h)
	}
	return checkOrigin(o.AllowedOrigins, h)
}

// sessionless is the first protocol version without sessions: its
// requests carry their version and the client's capabilities themselves.
const sessionless = "2026-07-28"

// byProtocol serves a request of protocol 2026-07-28 or later (its
// MCP-Protocol-Version header says so, on every request) statelessly,
// with no session to keep, so that any replica can answer it; an older
// client (initialize, then Mcp-Session-Id) gets a session as before. The
// SDK serves the new protocol only in its stateless mode, and the old one
// only with sessions for server-to-client requests. Among replicas, a
// POST of a session another replica holds is answered statelessly too.
func byProtocol(s *mcp.Server, replicas bool, stateless, sessions http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		if v := r.Header.Get("MCP-Protocol-Version"); v >= sessionless && id == "" {
			stateless.ServeHTTP(w, r)
			return
		}
		if replicas && id != "" && !holds(s, id) {
			switch r.Method {
			case http.MethodPost:
				stateless.ServeHTTP(w, r)
			case http.MethodGet:
				quietStream(w, r)
			default:
				// the session's end is the business of the replica
				// holding it (where it also ends when idle)
				w.Header().Set("Allow", "GET, POST")
				http.Error(w, "this replica does not hold the session: its end is the business of the replica that does", http.StatusMethodNotAllowed)
			}
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// quietInterval is how often a quiet stream says it is alive: often
// enough for a proxy's read timeout (nginx's default is 60 s).
var quietInterval = 25 * time.Second

// quietStream answers the standalone event stream of a session another
// replica holds: a stream on which nothing is sent but a comment now and
// then, until the client leaves. A client whose stream broke (its
// replica gone, say) reconnects to whichever replica the balancer picks;
// a 405 there would end a go-sdk client's whole connection. What a call
// of the session asks the client travels on that call's own answer, not
// here.
func quietStream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(quietInterval)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if _, err := io.WriteString(w, ":\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// holds reports whether session id lives in this process.
func holds(s *mcp.Server, id string) bool {
	for ss := range s.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// refuseNullID answers a POST holding a request with "id": null (alone or
// in a batch) with a JSON-RPC error of id null, as stdio does: the SDK
// would take it for a notification and never answer it.
func refuseNullID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		data, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
		rest := r.Body
		r.Body = readCloser{io.MultiReader(bytes.NewReader(data), rest), rest}
		if err != nil || len(data) > maxRequestBody || !holdsNullID(data) {
			next.ServeHTTP(w, r) // the SDK reports a body it cannot read or take
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		text, _ := json.Marshal(errNullID)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`, jsonrpc.CodeInvalidRequest, text)
	})
}

// holdsNullID reports whether a body is a request with "id": null, or a
// batch holding one.
func holdsNullID(body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !bytes.Contains(body, []byte("null")) {
		return false
	}
	if body[0] != '[' {
		return nullID(body)
	}
	var items []json.RawMessage
	if json.Unmarshal(body, &items) != nil {
		return false
	}
	return slices.ContainsFunc(items, func(m json.RawMessage) bool { return nullID(m) })
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// authenticated marks the connection of a request that got past the
// token as authenticated, so that it keeps its slot.
func authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		markAuthenticated(r)
		next.ServeHTTP(w, r)
	})
}

// streamCap refuses an event stream (GET) while max are open, so that
// streams cannot hold the connections requests need.
func streamCap(max int, next http.Handler) http.Handler {
	slots := make(chan struct{}, max)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			default:
				w.Header().Set("Retry-After", "60")
				http.Error(w, "too many open event streams: retry when one ends", http.StatusServiceUnavailable)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request refused before its client is known with
// status, and closes the connection: a client refused keeps no slot.
func refuse(w http.ResponseWriter, msg string, status int) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// checkOrigin refuses requests from browser origins that are neither
// loopback nor allowed.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, allowed) {
			refuse(w, "origin "+origin+" is not allowed (serve with --allow-origin "+origin+" to allow it)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// CheckOrigins checks origins to allow: each an http or https origin,
// scheme://host[:port] with nothing after it. "*" is refused: any web page
// could then call the server, so each origin is named.
func CheckOrigins(origins []string) error {
	var probs problem.List
	for _, o := range origins {
		if msg := originProblem(o); msg != "" {
			probs.Add(fmt.Sprintf("--allow-origin %q", o), "%s (want http(s)://host[:port], e.g. https://app.example.com or http://localhost:5173)", msg)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return probs
}

// originProblem says what is wrong with an origin to allow ("" when
// nothing is).
func originProblem(o string) string {
	if o == "*" {
		return "any origin is not supported: it would let every web page call the server; name each origin"
	}
	u, err := url.Parse(o)
	switch {
	case err != nil:
		return "not a URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "not an http or https origin"
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return "no host"
	case u.User != nil:
		return "an origin has no user name or password"
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "an origin has no path, query or fragment"
	}
	return ""
}

// originAllowed reports whether a browser origin may call the server: a
// loopback origin (a page served from this machine), or one of allowed.
func originAllowed(origin string, allowed []string) bool {
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // including "null", sent by sandboxed pages and files
	}
	return isLoopback(u.Hostname())
}

// bearer refuses requests without the token. The scheme name is
// case-insensitive and may be followed by several spaces (RFC 7235): bearer
// and BEARER are Bearer.
func bearer(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, credentials, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimLeft(credentials, " ")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="elicit"`)
			refuse(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sessionCap refuses a new session (a POST without Mcp-Session-Id) while
// max sessions are live or being made: each new one reserves its place
// before the count of the next, so initializes arriving together cannot
// exceed max. A reservation ends when its response starts (the session it
// made, if any, is live by then) or its request ends.
func sessionCap(s *mcp.Server, max int, next http.Handler) http.Handler {
	var mu sync.Mutex
	making := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		n := making
		for range s.Sessions() {
			n++
		}
		if n >= max {
			mu.Unlock()
			w.Header().Set("Retry-After", "60")
			http.Error(w, "too many live sessions: retry when one ends or expires", http.StatusServiceUnavailable)
			return
		}
		making++
		mu.Unlock()
		var once sync.Once
		release := func() {
			once.Do(func() {
				mu.Lock()
				making--
				mu.Unlock()
			})
		}
		defer release()
		next.ServeHTTP(&startWriter{ResponseWriter: w, started: release}, r)
	})
}

// startWriter calls started when the response starts.
type startWriter struct {
	http.ResponseWriter
	started func()
}

func (w *startWriter) WriteHeader(code int) {
	w.started()
	w.ResponseWriter.WriteHeader(code)
}

func (w *startWriter) Write(p []byte) (int, error) {
	w.started()
	return w.ResponseWriter.Write(p)
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *startWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// deadlines bounds the time to read a request's body and to make each
// write of the response, without bounding how long a response stream (the
// SSE stream of a session) stays open: a client trickling a body, or no
// longer reading, loses its connection; one waiting for events does not.
func deadlines(body, write time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(time.Time{}) // a kept-alive connection's last one
		if r.Body != nil && r.Body != http.NoBody {
			_ = rc.SetReadDeadline(time.Now().Add(body))
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		dw := &deadlineWriter{ResponseWriter: w, rc: rc, timeout: write}
		next.ServeHTTP(dw, r)
		_ = rc.SetWriteDeadline(time.Now().Add(write)) // for the server's last flush
	})
}

// deadlineBody lifts the body's read deadline once it has been read, so
// that the server's wait for the connection to close (which would end the
// request) is not cut short while the response streams.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	once sync.Once
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.lift()
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	b.lift()
	return b.ReadCloser.Close()
}

func (b *deadlineBody) lift() { b.once.Do(func() { _ = b.rc.SetReadDeadline(time.Time{}) }) }

// deadlineWriter gives each write and flush of a response its own deadline.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.ResponseWriter.Write(p)
}

// FlushError flushes within the deadline (http.ResponseController uses it).
func (w *deadlineWriter) FlushError() error {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.rc.Flush()
}

// Flush is FlushError for code that asks for an http.Flusher.
func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// Unwrap gives http.ResponseController the underlying writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ServeHTTP listens on addr (already checked by ListenAddr) and serves until
// ctx ends. ready, if not nil, receives the bound address.
func ServeHTTP(ctx context.Context, s *mcp.Server, addr string, opts *HTTPOptions, ready func(string)) error {
	o := opts.withDefaults()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot serve: %w", err)
	}
	guard := guardConnections(ln, o.MaxConnections, o.MaxConnections/4, o.AuthTimeout)
	srv := &http.Server{
		Handler:           HTTPHandler(s, &o),
		ReadHeaderTimeout: o.HeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnState:         guard.connState,
		ConnContext:       withConn,
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(guard) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
