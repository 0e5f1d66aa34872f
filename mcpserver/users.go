package mcpserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Users are a team's bearer tokens, each a person's: a tokens file holds
// one line per token, "NAME SHA256", the token's SHA-256 in hex (never the
// token itself), and "#" starts a comment. A request sends one of the
// tokens, and the calls it makes are that person's: the records they
// leave name them.
type Users struct {
	path   string
	byHash map[[sha256.Size]byte]string
}

// ParseUsers reads a tokens file's text; path names it in problems. Every
// problem is listed, by line.
func ParseUsers(path string, text []byte) (*Users, error) {
	u := &Users{path: path, byHash: map[[sha256.Size]byte]string{}}
	var probs problem.List
	sc := bufio.NewScanner(strings.NewReader(string(text)))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, n)
		if len(f) != 2 {
			probs = append(probs, problem.Problem{Path: at, Message: fmt.Sprintf("has %d words, want NAME SHA256 (elicit token NAME --tokens-file FILE writes one)", len(f))})
			continue
		}
		sum, err := hex.DecodeString(f[1])
		if err != nil || len(sum) != sha256.Size {
			probs = append(probs, problem.Problem{Path: at, Message: fmt.Sprintf("%q is not a SHA-256 in hex (64 hex digits): the file holds tokens' hashes, not tokens", f[1])})
			continue
		}
		h := [sha256.Size]byte(sum)
		if other, dup := u.byHash[h]; dup {
			probs = append(probs, problem.Problem{Path: at, Message: fmt.Sprintf("the token of %s is %s's too: give each person a token of their own", f[0], other)})
			continue
		}
		u.byHash[h] = f[0]
	}
	if len(probs) > 0 {
		return nil, probs
	}
	if len(u.byHash) == 0 {
		return nil, fmt.Errorf("%s holds no token: add one with elicit token NAME --tokens-file %s", path, path)
	}
	return u, nil
}

// NewToken is a new random token, and its line for a tokens file.
func NewToken(name string) (token, line string, err error) {
	if name == "" || strings.ContainsAny(name, " \t\r\n#") {
		return "", "", fmt.Errorf("%q cannot name a person in a tokens file: give one word, without #", name)
	}
	b := make([]byte, 32)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(token))
	return token, name + " " + hex.EncodeToString(sum[:]) + "\n", nil
}

// verify is the tokens' check for auth.RequireBearerToken: the person a
// token is, as the calls' TokenInfo.UserID.
func (u *Users) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	name, ok := u.byHash[sha256.Sum256([]byte(token))]
	if !ok {
		return nil, fmt.Errorf("%w: not one of the tokens in %s", auth.ErrInvalidToken, u.path)
	}
	return &auth.TokenInfo{UserID: name}, nil
}

// require refuses a request without one of the tokens.
func (u *Users) require(next http.Handler) http.Handler {
	return auth.RequireBearerToken(u.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
}

// caller is the person whose token a call came with, "" when the server
// has no tokens file.
func caller(req *mcp.CallToolRequest) string {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return ""
	}
	return req.Extra.TokenInfo.UserID
}
