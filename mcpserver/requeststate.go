package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// StateKeyEnv is the key replicas share to trust each other's request
// states: ELICIT_SERVER_KEY=any-long-secret. Without it each server has a
// random key of its own, and an answer must come back to the server that
// asked.
const StateKeyEnv = "ELICIT_SERVER_KEY"

// stateExpiry is how long the person has to answer a dialog.
const stateExpiry = time.Hour

// requestStates seal the request state of a multi-round-trip result: on
// protocol 2026-07-28 it travels through the client and comes back with
// the answer, so it is signed (HMAC-SHA256), bound to the call (the tool
// and its arguments) and expires.
type requestStates struct{ key []byte }

// newRequestStates takes its key from secret (hashed), or a random one.
func newRequestStates(secret string) requestStates {
	if secret != "" {
		k := sha256.Sum256([]byte(secret))
		return requestStates{k[:]}
	}
	k := make([]byte, 32)
	rand.Read(k)
	return requestStates{k}
}

// errState says a request state cannot be trusted.
var errState = errors.New("the answer came back with a request state this server did not give, one altered, expired or given for another call: call the tool again without inputResponses")

// binding is what a state is bound to: the tool and its arguments,
// re-encoded so that a client's key order does not matter.
func binding(tool string, args json.RawMessage) []byte {
	var v any
	if json.Unmarshal(args, &v) == nil {
		if canon, err := json.Marshal(v); err == nil {
			args = canon
		}
	}
	sum := sha256.Sum256(append([]byte(tool+"\x00"), args...))
	return sum[:]
}

// seal is the state of a question sent at sent for the call.
func (k requestStates) seal(tool string, args json.RawMessage, sent time.Time) string {
	body := "v1." + strconv.FormatInt(sent.UnixMilli(), 10) + "." + strconv.FormatInt(sent.Add(stateExpiry).UnixMilli(), 10)
	return body + "." + base64.RawURLEncoding.EncodeToString(k.mac(body, tool, args))
}

// open checks a state for the call and says when its question was sent.
func (k requestStates) open(state, tool string, args json.RawMessage, now time.Time) (sent time.Time, err error) {
	i := strings.LastIndexByte(state, '.')
	if i < 0 {
		return time.Time{}, errState
	}
	body, sig := state[:i], state[i+1:]
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, k.mac(body, tool, args)) {
		return time.Time{}, errState
	}
	var sentMS, expiresMS int64
	if _, err := fmt.Sscanf(body, "v1.%d.%d", &sentMS, &expiresMS); err != nil || now.UnixMilli() > expiresMS {
		return time.Time{}, errState
	}
	return time.UnixMilli(sentMS), nil
}

func (k requestStates) mac(body, tool string, args json.RawMessage) []byte {
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(body))
	m.Write(binding(tool, args))
	return m.Sum(nil)
}
