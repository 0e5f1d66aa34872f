package responselog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/elicit/elicit/form"
)

// KeyboardHintAfter is how many submissions it takes before stats suggests
// keyboard mode to someone who has not turned it on.
const KeyboardHintAfter = 10

// PromoteAfter is how many times a hand-built form's shape must recur
// before stats suggests saving it as a template.
const PromoteAfter = 3

// Stats summarizes the log.
type Stats struct {
	// Partial says the database could not be read: these figures come
	// from the records not yet in it.
	Partial bool `json:"partial,omitempty"`
	// ReadOnly says the log could not be written: records not yet in the
	// database are left out.
	ReadOnly bool `json:"read_only,omitempty"`
	Records  int  `json:"records"`
	// Rendered counts renders by surface; Routed the router's choices.
	Rendered map[string]int `json:"rendered"`
	Routed   map[string]int `json:"routed"`
	// Submissions are valid collected responses; Rejected the collects
	// that found problems.
	Submissions int            `json:"submissions"`
	Rejected    int            `json:"rejected"`
	ByHost      map[string]int `json:"submissions_by_host"`
	// ByFormID counts the submissions of forms that have a form_id, by it.
	ByFormID map[string]int `json:"submissions_by_form_id"`
	// ByTemplate counts submissions per template id, hand-built forms
	// ("dict") per shape; most first.
	ByTemplate []TemplateCount `json:"submissions_by_template"`
	// FromTemplates is the share of submissions whose form came from a
	// template.
	FromTemplates float64   `json:"from_templates"`
	Inference     Inference `json:"inference"`
	// KeyboardHint is set after KeyboardHintAfter submissions when
	// keyboard mode is off.
	KeyboardHint string `json:"keyboard_hint,omitempty"`
	// Promote lists hand-built forms whose shape recurred PromoteAfter
	// times or more: candidates for a template.
	Promote []Promotion `json:"promote"`
}

// TemplateCount is the submissions of one template id (and shape).
type TemplateCount struct {
	TemplateID  string `json:"template_id"`
	Shape       string `json:"shape,omitempty"`
	Title       string `json:"title"`
	Submissions int    `json:"submissions"`
}

// Inference is how often fields came pre-filled with a guess, and how often
// the guess was kept.
type Inference struct {
	// Fields counts the fields of submitted forms, Inferred those with a
	// guessed default, Kept the guesses submitted unchanged.
	Fields   int `json:"fields"`
	Inferred int `json:"inferred"`
	Kept     int `json:"kept"`
	// Rate is Inferred/Fields; KeptRate is Kept/Inferred.
	Rate     float64 `json:"rate"`
	KeptRate float64 `json:"kept_rate"`
}

// Promotion is a recurring hand-built form to save as a template.
type Promotion struct {
	Shape   string `json:"shape"`
	Title   string `json:"title"`
	Uses    int    `json:"uses"`
	Name    string `json:"suggested_name"`
	Command string `json:"command"`
}

// Stats computes the summary. keyboardMode is whether the user already
// turned keyboard mode on (then no hint).
func (s *Store) Stats(keyboardMode bool) (st *Stats, err error) {
	err = s.retry(func() (err error) {
		st, err = s.stats(keyboardMode)
		return err
	})
	return st, err
}

func (s *Store) stats(keyboardMode bool) (*Stats, error) {
	st := &Stats{Partial: s.Partial, ReadOnly: s.ReadOnly, Rendered: map[string]int{}, Routed: map[string]int{}, ByHost: map[string]int{}, ByFormID: map[string]int{},
		ByTemplate: []TemplateCount{}, Promote: []Promotion{}}
	// Every figure comes from the tallies (tally.go), not the records.
	if err := s.queryRow(`SELECT coalesce(sum(n), 0) FROM tallies WHERE dim = 'all'`).Scan(&st.Records); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		kind, dim string
		into      map[string]int
	}{{KindRender, "surface", st.Rendered}, {KindSurface, "surface", st.Routed}, {KindResponse, "host", st.ByHost}, {KindResponse, "form", st.ByFormID}} {
		if err := s.counts(`SELECT key, n FROM tallies WHERE kind = ? AND dim = ?`, c.kind, c.dim, c.into); err != nil {
			return nil, err
		}
	}
	err := s.queryRow(`SELECT coalesce(sum(n), 0), coalesce(sum(fields), 0), coalesce(sum(inferred), 0), coalesce(sum(kept), 0)
		FROM tallies WHERE kind = ? AND dim = 'all'`, KindResponse).
		Scan(&st.Submissions, &st.Inference.Fields, &st.Inference.Inferred, &st.Inference.Kept)
	if err != nil {
		return nil, err
	}
	if err := s.queryRow(`SELECT coalesce(sum(n), 0) FROM tallies WHERE kind = ? AND dim = 'all'`, KindRejected).Scan(&st.Rejected); err != nil {
		return nil, err
	}
	st.Inference.Rate = ratio(st.Inference.Inferred, st.Inference.Fields)
	st.Inference.KeptRate = ratio(st.Inference.Kept, st.Inference.Inferred)
	if err := s.byTemplate(st); err != nil {
		return nil, err
	}
	if st.Submissions >= KeyboardHintAfter && !keyboardMode {
		st.KeyboardHint = fmt.Sprintf("%d forms submitted so far. If forms feel like too much, `elicit config set keyboard_mode true` "+
			"asks them through AskUserQuestion instead. A form with number, date or textarea fields still opens the widget; "+
			"asked through AskUserQuestion, such fields come in a markdown follow-up.", st.Submissions)
	}
	if err := s.promotions(st); err != nil {
		return nil, err
	}
	return st, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (s *Store) counts(q, kind, dim string, into map[string]int) error {
	rows, err := s.query(q, kind, dim)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return err
		}
		if k == "" {
			k = "unknown"
		}
		into[k] += n
	}
	return rows.Err()
}

func (s *Store) byTemplate(st *Stats) error {
	rows, err := s.query(`SELECT key, sub, title, n FROM tallies WHERE kind = ? AND dim = 'template' ORDER BY n DESC, key, sub`, KindResponse)
	if err != nil {
		return err
	}
	defer rows.Close()
	fromTemplates := 0
	for rows.Next() {
		var t TemplateCount
		if err := rows.Scan(&t.TemplateID, &t.Shape, &t.Title, &t.Submissions); err != nil {
			return err
		}
		if t.TemplateID != "dict" {
			fromTemplates += t.Submissions
		}
		st.ByTemplate = append(st.ByTemplate, t)
	}
	st.FromTemplates = ratio(fromTemplates, st.Submissions)
	return rows.Err()
}

// promotions finds hand-built shapes used PromoteAfter times or more (the
// most of their renders and their submissions), not yet saved. Each gets
// a name of its own: one no other suggestion, saved shape or existing
// template has (a second "review-findings" is "review-findings-2").
func (s *Store) promotions(st *Stats) error {
	taken, err := s.promotedNames()
	if err != nil {
		return err
	}
	rows, err := s.query(`SELECT shape, title, CASE WHEN renders > responses THEN renders ELSE responses END AS uses FROM
		(SELECT t.key AS shape, coalesce(max(sh.title), max(t.title)) AS title,
			sum(CASE WHEN t.kind = ? THEN t.n ELSE 0 END) AS renders, sum(CASE WHEN t.kind = ? THEN t.n ELSE 0 END) AS responses
		FROM tallies t LEFT JOIN shapes sh ON sh.shape = t.key
		WHERE t.dim = 'shape' AND t.key NOT IN (SELECT shape FROM promoted)
		GROUP BY t.key) u
		WHERE renders >= ? OR responses >= ? ORDER BY uses DESC, shape`, KindRender, KindResponse, PromoteAfter, PromoteAfter)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p Promotion
		if err := rows.Scan(&p.Shape, &p.Title, &p.Uses); err != nil {
			return err
		}
		p.Name = TemplateName(p.Title)
		for n := 2; taken[p.Name] || (s.TemplateExists != nil && s.TemplateExists(p.Name)); n++ {
			p.Name = TemplateName(p.Title) + "-" + strconv.Itoa(n)
		}
		taken[p.Name] = true
		p.Command = "elicit templates save " + p.Name + " --shape " + p.Shape
		st.Promote = append(st.Promote, p)
	}
	return rows.Err()
}

// TemplatesIn is a Store.TemplateExists for a template library (built in
// and its folder), listed once, when first asked.
func TemplatesIn(ts *form.Templates) func(name string) bool {
	var names map[string]bool
	return func(name string) bool {
		if names == nil {
			names = map[string]bool{}
			for _, t := range ts.List() {
				names[t.Name] = true
			}
		}
		return names[name]
	}
}

// promotedNames is the set of names shapes were saved as.
func (s *Store) promotedNames() (map[string]bool, error) {
	rows, err := s.query(`SELECT name FROM promoted`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names[name] = true
	}
	return names, rows.Err()
}

// TemplateName turns a title into a template name: lower case letters and
// digits joined by single dashes, at most 40 characters ("form" when
// nothing is left).
func TemplateName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	name := strings.TrimRight(b.String(), "-")
	if name == "" {
		return "form"
	}
	return name
}

// Sorted returns the keys of a count map, most first.
func Sorted(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
