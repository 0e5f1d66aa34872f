package mcpserver

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// connGuard shares a server's connection slots so that clients without
// the token, or without anything to say, cannot keep those with it out:
//
//   - at most max connections are open; a connection accepted past that
//     closes another: the oldest one not yet authenticated (whatever it is
//     doing: silent, trickling its headers, being refused), else the
//     authenticated one idle the longest. Only when every connection is
//     authenticated and in a request does a new one wait;
//   - one client (remote address) holds at most perClient connections not
//     yet authenticated: past that its oldest one is closed;
//   - a connection that has not sent an authenticated request within
//     authWindow of being accepted is closed.
//
// A request is authenticated once it passed the bearer token check
// (markAuthenticated, called by the handler).
type connGuard struct {
	net.Listener
	max, perClient int
	authWindow     time.Duration

	mu     sync.Mutex
	cond   *sync.Cond // signalled when a connection closes or goes idle
	open   map[*guardedConn]struct{}
	seq    uint64
	closed bool
}

func guardConnections(ln net.Listener, maxConns, perClient int, authWindow time.Duration) *connGuard {
	g := &connGuard{Listener: ln, max: maxConns, perClient: max(perClient, 1), authWindow: authWindow, open: map[*guardedConn]struct{}{}}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// guardedConn is a connection as the guard tracks it.
type guardedConn struct {
	net.Conn
	g      *connGuard
	client string
	timer  *time.Timer
	once   sync.Once

	// guarded by g.mu
	seq       uint64
	authed    bool
	busy      bool // in a request
	idleSince time.Time
}

// Accept accepts the next connection, making room for it.
func (g *connGuard) Accept() (net.Conn, error) {
	c, err := g.Listener.Accept()
	if err != nil {
		return nil, err
	}
	gc := &guardedConn{Conn: c, g: g, client: remoteHost(c.RemoteAddr())}
	if err := g.admit(gc); err != nil {
		c.Close()
		return nil, err
	}
	return gc, nil
}

// admit counts gc in, closing connections to make room for it, or waiting
// when none can be closed.
func (g *connGuard) admit(gc *guardedConn) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	gc.seq, gc.idleSince = g.seq, time.Now()
	g.open[gc] = struct{}{}
	if v := g.oldestUnauthenticated(gc); v != nil {
		g.shed(v)
	}
	for len(g.open) > g.max {
		if v := g.victim(gc); v != nil {
			g.shed(v)
			continue
		}
		if g.closed {
			delete(g.open, gc)
			return net.ErrClosed
		}
		g.cond.Wait()
	}
	gc.timer = time.AfterFunc(g.authWindow, gc.authExpired)
	return nil
}

// shed closes a connection for a newcomer; its slot is free at once.
func (g *connGuard) shed(c *guardedConn) {
	delete(g.open, c)
	c.Conn.Close()
	go c.Close() // the rest of closing takes g.mu
}

// oldestUnauthenticated is the oldest connection not yet authenticated of
// newcomer's client, when the client has more than perClient of them
// (counting newcomer); else nil.
func (g *connGuard) oldestUnauthenticated(newcomer *guardedConn) *guardedConn {
	var oldest *guardedConn
	n := 0
	for c := range g.open {
		if c.authed || c.client != newcomer.client {
			continue
		}
		n++
		if c != newcomer && (oldest == nil || c.seq < oldest.seq) {
			oldest = c
		}
	}
	if n <= g.perClient {
		return nil
	}
	return oldest
}

// victim is the connection to close for newcomer: the oldest not yet
// authenticated, else the authenticated one idle the longest; nil when
// every other is authenticated and in a request.
func (g *connGuard) victim(newcomer *guardedConn) *guardedConn {
	var unauth, idle *guardedConn
	for c := range g.open {
		switch {
		case c == newcomer:
		case !c.authed:
			if unauth == nil || c.seq < unauth.seq {
				unauth = c
			}
		case !c.busy:
			if idle == nil || c.idleSince.Before(idle.idleSince) {
				idle = c
			}
		}
	}
	if unauth != nil {
		return unauth
	}
	return idle
}

// Close stops accepting; an Accept waiting for room returns.
func (g *connGuard) Close() error {
	g.mu.Lock()
	g.closed = true
	g.cond.Broadcast()
	g.mu.Unlock()
	return g.Listener.Close()
}

// connState follows the server's view of each connection: in a request,
// or idle (and so free to close for a newcomer).
func (g *connGuard) connState(c net.Conn, state http.ConnState) {
	gc, ok := c.(*guardedConn)
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch state {
	case http.StateActive, http.StateHijacked:
		gc.busy = true
	case http.StateIdle:
		gc.busy, gc.idleSince = false, time.Now()
		g.cond.Broadcast()
	}
}

// Close closes the connection and frees its slot, once.
func (c *guardedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		if c.timer != nil {
			c.timer.Stop()
		}
		c.g.mu.Lock()
		delete(c.g.open, c)
		c.g.cond.Broadcast()
		c.g.mu.Unlock()
	})
	return err
}

// authExpired closes a connection that has sent no authenticated request
// in its window.
func (c *guardedConn) authExpired() {
	c.g.mu.Lock()
	authed := c.authed
	c.g.mu.Unlock()
	if !authed {
		c.Close()
	}
}

func (c *guardedConn) authenticate() {
	c.g.mu.Lock()
	c.authed = true
	c.g.mu.Unlock()
}

// connKey is the context key of a request's connection.
type connKey struct{}

// withConn is the server's ConnContext: each request can find its
// connection.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// markAuthenticated records that the request's connection has sent an
// authenticated request (nothing when it is not a guarded connection).
func markAuthenticated(r *http.Request) {
	if gc, ok := r.Context().Value(connKey{}).(*guardedConn); ok {
		gc.authenticate()
	}
}

// remoteHost is the client a remote address names: its host.
func remoteHost(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}
