package relay

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// AnswerSchema is the response schema of the structured mode: numbered
// points labelled EVIDENCE / INFERENCE / GUESS and, per open challenge, a
// defense or a concession. The consultant's JSON is rendered as the plain
// text the protocol reads, so a format failure cannot happen.
//
//go:embed answer.schema.json
var AnswerSchema []byte

// structuredAnswer is an answer that follows AnswerSchema.
type structuredAnswer struct {
	Points []struct {
		Text    string `json:"text"`
		Label   string `json:"label"`
		Support string `json:"support"`
	} `json:"points"`
	Challenges []struct {
		ID       string `json:"id"`
		Stance   string `json:"stance"`
		Argument string `json:"argument"`
	} `json:"challenges"`
}

// render turns a structured answer into the protocol's text: "1. TEXT
// LABEL: SUPPORT" lines, then "Re C1: I defend C1. ..." or "Re C1: I
// concede C1. ...". Text that is not such JSON comes back unchanged.
func render(answer string) (string, bool) {
	var a structuredAnswer
	if json.Unmarshal([]byte(strings.TrimSpace(answer)), &a) != nil || (a.Points == nil && a.Challenges == nil) {
		return answer, false
	}
	var b strings.Builder
	for i, p := range a.Points {
		fmt.Fprintf(&b, "%d. %s %s: %s\n", i+1, oneLine(p.Text), p.Label, oneLine(p.Support))
	}
	if len(a.Points) > 0 && len(a.Challenges) > 0 {
		b.WriteString("\n")
	}
	for _, c := range a.Challenges {
		verb := "defend"
		if c.Stance == "concede" {
			verb = "concede"
		}
		fmt.Fprintf(&b, "Re %s: I %s %s. %s\n", c.ID, verb, c.ID, oneLine(c.Argument))
	}
	return b.String(), true
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
