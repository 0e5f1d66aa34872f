package form

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/elicit/elicit/problem"
)

// The one-tap confirm of a form whose every question is a guess (AllGuessed):
// the chat surfaces (AskUserQuestion, request_user_input, a markdown
// message) ask it as one question that shows every guess, its value and
// why, with "Keep all" one tap away and the whole form one choice away
// ("Change some": then the questions are asked). "Keep all", and replies
// such as "yes", "ok" or "yep, all good", read back as the guesses
// themselves; "Change some", "no", or any other free text, as a request to
// ask every guessed question, which collect reports under each field so
// that its re-ask asks them. A guess is never taken unless the person saw
// it: every guess is in the confirm's text.

// The confirm's two choices and its chip header.
const (
	KeepAll       = "Keep all"
	ChangeSome    = "Change some"
	ConfirmHeader = "Guesses"
	// ConfirmID is the confirm's question id on the surfaces that key
	// questions by id (request_user_input), unless a question of the form
	// has it.
	ConfirmID = "keep_guesses"
	// keepAllNote and changeSomeNote describe the two choices.
	keepAllNote    = "Use every guess above as the answer."
	changeSomeNote = "Answer each question yourself; its guess is offered first."
)

// ConfirmNotes describe the confirm's two choices, KeepAll's then
// ChangeSome's.
func ConfirmNotes() (keep, change string) { return keepAllNote, changeSomeNote }

// Guess is one guessed field as the confirm shows it.
type Guess struct {
	Field *Field
	// Value is the guess as people read it, on one line.
	Value string
}

// Guesses are the form's guessed fields that ask something, in form order.
func (f *Form) Guesses() []Guess {
	var out []Guess
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() || !fl.Inferred() {
			continue
		}
		out = append(out, Guess{Field: fl, Value: strings.Join(strings.Fields(fl.formatAnswer(fl.Default)), " ")})
	}
	return out
}

// Asks counts the fields of f that ask something (not a display-only
// report).
func (f *Form) Asks() int {
	n := 0
	for i := range f.Fields {
		if !f.Fields[i].DisplayOnly() {
			n++
		}
	}
	return n
}

// Line is the guess as one phrase: "Which release track: stable (the last
// release was stable)".
func (g Guess) Line() string {
	q := strings.TrimRight(strings.TrimSpace(g.Field.Text), "?:.")
	return q + ": " + g.Value + " (" + g.Field.InferredFrom + ")"
}

// ConfirmText is the confirm's question, every guess in it: "Keep these
// guesses? Which release track: stable (the last release was stable); Who
// owns the rollout: platform team (they owned the last one)."
func (f *Form) ConfirmText() string {
	gs := f.Guesses()
	lines := make([]string, len(gs))
	for i, g := range gs {
		lines[i] = g.Line()
	}
	lead := "Keep these guesses? "
	if len(gs) == 1 {
		lead = "Keep this guess? "
	}
	return lead + strings.Join(lines, "; ") + "."
}

// NewConfirmChoice is the confirm of f as a chat tool asks it, under the
// question id (or text) id: Keep all, recommended, and Change some. Its
// answers (ChatAnswers.Add) are the guesses, or a request to ask them.
func NewConfirmChoice(f *Form, id string) *ChatChoice {
	fl := &Field{ID: id, Text: f.ConfirmText(), Type: SingleSelect, Required: true,
		Options: []string{KeepAll, ChangeSome}, Recommended: KeepAll}
	return &ChatChoice{Field: fl, Options: fl.Options, Badge: RecommendedSuffix, confirm: f}
}

// confirmReply is how a reply to the confirm reads.
type confirmReply int

const (
	notConfirm confirmReply = iota // an answer of another kind
	keepAll                        // keep every guess
	changeSome                     // ask the questions
)

// Words of a reply to the confirm: a reply made only of keep words, one of
// them strong, keeps every guess; one made only of change words, one of
// them strong, asks the questions. Anything else is no reply to the
// confirm ("no, all good", "keep all but the track").
var (
	keepStrong = wordSet("yes y yep yup yeah yea ya ok okay k kk sure fine good great perfect correct right " +
		"lgtm keep confirm confirmed approve approved agree agreed accept accepted absolutely exactly " +
		"definitely affirmative go 👍 ✅ ✔")
	keepFiller = wordSet("all them it they these this that those the guesses guess looks look sounds seems " +
		"is are s thats please thanks thank you ty ahead with just everything as be so of course to me " +
		"both indeed totally very much all's they're it's that's")
	changeStrong = wordSet("change no n nope nah edit fix wrong modify adjust")
	changeFiller = wordSet("some of them a few let me i want to would like it please the guesses guess " +
		"answers answer are is not quite all one two three questions ask")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// readConfirm reads text as a reply to the confirm: keepAll, changeSome or
// notConfirm. Case, punctuation and the chat tools' badges are forgiven
// ("Keep all (Recommended)", "Yep, all good!").
func readConfirm(text string) confirmReply {
	s := strings.TrimSpace(stripBadges(strings.TrimSpace(text)))
	switch {
	case strings.EqualFold(s, KeepAll):
		return keepAll
	case strings.EqualFold(s, ChangeSome):
		return changeSome
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '\''
	})
	if len(words) == 0 || len(words) > 8 {
		return notConfirm
	}
	classify := func(strong, filler map[string]bool) bool {
		found := false
		for _, w := range words {
			w = strings.Trim(w, "'")
			switch {
			case strong[w]:
				found = true
			case filler[w] || w == "":
			default:
				return false
			}
		}
		return found
	}
	switch {
	case classify(keepStrong, keepFiller):
		return keepAll
	case classify(changeStrong, changeFiller):
		return changeSome
	}
	return notConfirm
}

// changeProblem is the problem that asks guessed field g again: why it is
// asked (the confirm's answer) and its guess.
func changeProblem(g Guess, answer string, how confirmReply) string {
	why := "you chose to change some guesses"
	if how == notConfirm {
		why = fmt.Sprintf("the guesses were not kept (the answer was %s)", strconv.Quote(shorten(answer, 60)))
	}
	return fmt.Sprintf("%s: answer this question (the guess was %s)", why, strconv.Quote(g.Value))
}

// shorten cuts s to at most n runes, with "…".
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ConfirmReply reads a markdown reply as an answer to the confirm of an
// all-guessed form f, or reports false when it is none (a reply of `id:
// answer` lines, say): then it is read as a questionnaire's reply. bare is the one question no other document
// answered (markdown.ParseOptions.Bare): then the reply is the confirm's
// only when it is no answer to that question ("ok" to a single choice),
// and keeps or asks that question alone; with none, it keeps every guess,
// or asks every guessed question again (problems under answers.<id>).
func ConfirmReply(f *Form, reply, bare string) (map[string]any, problem.List, bool) {
	if !f.AllGuessed() {
		return nil, nil, false
	}
	text := strings.TrimSpace(reply)
	how := readConfirm(text)
	if how == notConfirm {
		return nil, nil, false
	}
	gs := f.Guesses()
	if bare != "" {
		fl := f.Field(bare)
		if fl == nil || !fl.Inferred() {
			return nil, nil, false
		}
		if v, msg := fl.Typed(text); msg == "" && v != nil && !(how == keepAll && textual(fl)) {
			return nil, nil, false // an answer to the question itself
		}
		gs = []Guess{{Field: fl, Value: strings.Join(strings.Fields(fl.formatAnswer(fl.Default)), " ")}}
	}
	out := map[string]any{}
	var probs problem.List
	for _, g := range gs {
		if how == keepAll {
			out[g.Field.ID] = g.Field.Default
			continue
		}
		probs.Add("answers."+g.Field.ID, "%s", changeProblem(g, text, how))
	}
	return out, probs, true
}

// textual reports whether any text answers f: a reply such as "ok" to it
// keeps the guess rather than replacing it with "ok".
func textual(f *Field) bool { return f.Type == TextInput || f.Type == Textarea }

// addConfirm reads the answer to the confirm c: the guesses, or a request
// to ask them, which Result turns into a problem for each guessed field no
// other question answered.
func (r *ChatAnswers) addConfirm(path string, c *ChatChoice, answer string) {
	how := readConfirm(answer)
	if how != keepAll {
		r.changes = append(r.changes, chatChange{form: c.confirm, answer: answer, how: how})
		return
	}
	for _, g := range c.confirm.Guesses() {
		if r.first(g.Field.ID, path, g.Field.Default) {
			r.out[g.Field.ID] = g.Field.Default
		}
	}
}

// chatChange is a confirm answered with anything but Keep all.
type chatChange struct {
	answer string
	form   *Form
	how    confirmReply
}

// changeProblems reports each guessed field of a confirm answered with
// anything but Keep all, when nothing else was answered: the questions are
// to be asked. Beside the answers to those questions (read in the same
// outputs), it asks nothing: the person has seen every guess, and what
// they left unanswered keeps its guess as any default is kept.
func (r *ChatAnswers) changeProblems() {
	if len(r.out) == 0 {
		for _, ch := range r.changes {
			for _, g := range ch.form.Guesses() {
				r.probs.Add("answers."+g.Field.ID, "%s", changeProblem(g, ch.answer, ch.how))
			}
		}
	}
	r.changes = nil // reported once, however often Result is called
}
