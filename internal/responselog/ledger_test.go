package responselog

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
)

// ledgerLog is a log holding two responses to a cast template in two
// projects, a hand-built form's response and a deliberation's synthesis.
func ledgerLog(t *testing.T, open opener) *Log {
	t.Helper()
	l, _ := open(t)
	day := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	l.Now = func() time.Time { day = day.Add(time.Hour); return day }
	db := mustForm(t, `{"title": "Storage", "fields": [
		{"id": "store", "text": "Which database should the service use?", "type": "single_select", "options": ["PostgreSQL", "SQLite"]},
		{"id": "cap", "text": "Effort cap in hours?", "type": "number"}]}`)
	resp := func(ans map[string]any) *form.Response {
		return &form.Response{ResponseID: "r-" + ans["store"].(string), Responses: ans}
	}
	who := Who{Host: "claude-code", Via: "mcp", Project: "/src/app", User: "ana"}
	l.Append(New(db, Event{Kind: KindResponse, Template: "storage", Response: resp(map[string]any{"store": "SQLite", "cap": 4})}, who))
	l.Append(New(db, Event{Kind: KindResponse, Template: "storage", Response: resp(map[string]any{"store": "PostgreSQL", "cap": 6})}, who))
	other := who
	other.Project, other.User = "/src/other", "ben"
	l.Append(New(db, Event{Kind: KindResponse, Template: "storage", Response: resp(map[string]any{"store": "Oracle", "cap": 1})}, other))
	hand := mustForm(t, `{"title": "Release", "fields": [{"id": "when", "text": "Ship on Friday?", "type": "boolean"}]}`)
	l.Append(New(hand, Event{Kind: KindResponse, Response: &form.Response{ResponseID: "r-ship", Responses: map[string]any{"when": "Yes"}}}, who))
	l.Append(New(hand, Event{Kind: KindRender}, who)) // not a decision
	l.Append(NewSynthesis(Synthesis{Deliberation: "d-42", Question: "Should the cache be sharded?", Answer: "No: one node holds the working set",
		Agreed: []string{"the working set fits in memory"}, Unresolved: []string{"growth past 2027"}}, who))
	return l
}

func TestDecisionsSearchFindsByAWordOfTheQuestion(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		s := mustRead(t, ledgerLog(t, open))
		tests := []struct {
			name   string
			filter DecisionFilter
			want   []string // titles, or response and deliberation ids
		}{
			{"every decision, newest first", DecisionFilter{}, []string{"d-42", "r-ship", "r-Oracle", "r-PostgreSQL", "r-SQLite"}},
			{"a stemmed word of a question", DecisionFilter{Query: "databases"}, []string{"r-Oracle", "r-PostgreSQL", "r-SQLite"}},
			{"a word of an answer ranks it first", DecisionFilter{Query: "database postgresql"}, []string{"r-PostgreSQL"}},
			{"any word when none has all", DecisionFilter{Query: "sharded zebra"}, []string{"d-42"}},
			{"a conclusion's words", DecisionFilter{Query: "working set"}, []string{"d-42"}},
			{"punctuation is no syntax", DecisionFilter{Query: `"cache" AND (NEAR`}, []string{"d-42"}},
			{"one project", DecisionFilter{Query: "database", Project: "/src/app"}, []string{"r-PostgreSQL", "r-SQLite"}},
			{"one person", DecisionFilter{User: "ben"}, []string{"r-Oracle"}},
			{"one template by name", DecisionFilter{TemplateID: "storage", Limit: 1}, []string{"r-Oracle"}},
			{"syntheses", DecisionFilter{TemplateID: "deliberation"}, []string{"d-42"}},
			{"a field", DecisionFilter{Field: "when"}, []string{"r-ship"}},
			{"nothing matches", DecisionFilter{Query: "zebra"}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := s.Decisions(tt.filter)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, d := range got {
					ids = append(ids, d.ResponseID+d.Deliberation)
				}
				if strings.Join(ids, ",") != strings.Join(tt.want, ",") {
					t.Errorf("decisions = %v, want %v", ids, tt.want)
				}
			})
		}
	})
}

func TestDecisionKeepsQuestionsAnswersAndWho(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		s := mustRead(t, ledgerLog(t, open))
		d, err := s.Decision("r-PostgreSQL")
		if err != nil {
			t.Fatal(err)
		}
		if d.User != "ana" || d.Project != "/src/app" || d.Host != "claude-code" || d.TemplateID != "template:storage" || len(d.Answers) != 2 ||
			d.Answers[0] != (Answer{Field: "store", Question: "Which database should the service use?", Answer: "PostgreSQL"}) || d.Answers[1].Answer != 6.0 {
			t.Errorf("decision = %+v", d)
		}
		hand, err := s.Decision("r-ship")
		if err != nil || len(hand.Answers) != 1 || hand.Answers[0].Question != "Ship on Friday?" {
			t.Errorf("a hand-built form's decision = %+v, %v", hand, err)
		}
		l, _ := open(t)
		aliased := `{"title": "A", "questions": [{"id": "x", "label": "Which alias wins?", "type": "text_input"}]}`
		l.Append(New(mustForm(t, aliased), Event{Kind: KindResponse, Definition: []byte(aliased),
			Response: &form.Response{ResponseID: "r-alias", Responses: map[string]any{"x": "label"}}}, Who{}))
		if d, err := mustRead(t, l).Decision("r-alias"); err != nil || len(d.Answers) != 1 || d.Answers[0].Question != "Which alias wins?" {
			t.Errorf("a form written with attune's aliases: %+v, %v", d, err)
		}
		y, err := s.Decision("d-42")
		if err != nil || y.Kind != KindSynthesis || y.Synthesis == nil || y.Synthesis.Answer != "No: one node holds the working set" || y.Synthesis.Unresolved[0] != "growth past 2027" {
			t.Errorf("synthesis = %+v, %v", y, err)
		}
		if _, err := s.Decision("nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown id: %v", err)
		}
	})
}

func TestLastAnswersAreTheProjectsNewest(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		s := mustRead(t, ledgerLog(t, open))
		got, err := s.LastAnswers("template:storage", "", "", "/src/app", []string{"store", "cap", "missing"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["store"].Answer != "PostgreSQL" || got["cap"].Answer != 6.0 || got["store"].ResponseID != "r-PostgreSQL" || got["store"].Time.IsZero() {
			t.Errorf("last answers = %+v", got)
		}
		if got, _ := s.LastAnswers("template:storage", "", "", "/src/elsewhere", []string{"store"}); len(got) != 0 {
			t.Errorf("another project's answers were recalled: %+v", got)
		}
	})
}

// TestVersion2DatabaseGainsTheLedger opens a database written before the
// ledger and the tallies: its responses become decisions, a hand-built
// form's with the questions its shape kept, and are counted.
func TestVersion2DatabaseGainsTheLedger(t *testing.T) {
	l, _ := testLog(t)
	path := filepath.Join(l.dir, dbName)
	old := strings.Replace(schema, ",\n\tproject TEXT NOT NULL DEFAULT '',\n\t\"user\" TEXT NOT NULL DEFAULT ''", "", 1)
	if old == schema {
		t.Fatal("the test's version 2 schema is the current one")
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{old, "PRAGMA user_version = 2",
		`INSERT INTO records (id, ts, kind, template_id, shape, response_id, responses) VALUES ('old', '2026-01-01T00:00:00Z', 'response', 'dict', 'abc', 'resp-old', '{"db":"MySQL"}')`,
		`INSERT INTO shapes (shape, title, form, last_seen) VALUES ('abc', 'T', '{"fields":[{"id":"db","text":"Which engine?","type":"text_input"}]}', '2026-01-01T00:00:00Z')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s := mustRead(t, l)
	got, err := s.Decisions(DecisionFilter{Query: "engine"})
	if err != nil || len(got) != 1 || got[0].ResponseID != "resp-old" || got[0].Answers[0].Answer != "MySQL" {
		t.Errorf("decisions = %+v, %v", got, err)
	}
	if st, err := s.Stats(false); err != nil || st.Records != 1 || st.Submissions != 1 || len(st.ByTemplate) != 1 {
		t.Errorf("stats of the upgraded database: %+v, %v; want its one response counted", st, err)
	}
}

// TestSearchRanksTheNewestMatchesOfTheFilter checks that a search scores
// only the newest searchCandidates matches, and that those are the newest
// of the decisions the filters keep, not of every decision.
func TestSearchRanksTheNewestMatchesOfTheFilter(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		defer func(n int) { searchCandidates = n }(searchCandidates)
		searchCandidates = 2
		s := mustRead(t, ledgerLog(t, open))
		// Three decisions ask "Which database…": two in /src/app (the
		// older ones), one in /src/other (the newest).
		got, err := s.Decisions(DecisionFilter{Query: "database", Project: "/src/app"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Project != "/src/app" || got[1].Project != "/src/app" {
			t.Errorf("got %d decisions, want this project's two: %+v", len(got), got)
		}
		got, err = s.Decisions(DecisionFilter{Query: "database"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ResponseID == "r-SQLite" || got[1].ResponseID == "r-SQLite" {
			t.Errorf("got %+v, want the two newest matches (not the oldest, r-SQLite)", got)
		}
	})
}
