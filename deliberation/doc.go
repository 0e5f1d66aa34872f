// Package deliberation is the codex-ask protocol as a deterministic,
// persistent state machine: a bounded multi-iteration argument between an
// orchestrating agent and a consulted agent (the consultee), with the
// ledger, the challenge lifecycle and the routing rules enforced by code.
//
// The loop is:
//
//	s, _ := deliberation.New("should we cache X?", nil, now)   // Next: the First Call prompt
//	s.Respond(consulteeAnswer, now)                            // record the answer
//	next, problems := s.Evaluate(evaluation, now)              // the orchestrator's judgments
//
// [State] is the seed's state file, schema version 1, plus extension fields
// (status, mode, points, not_evaluated, ...) that a file written by the
// original skill simply lacks. [State.Evaluate] takes one [Evaluation] per
// response: the judgments the protocol leaves to the orchestrator (how each
// point is classified, whether a defense is accepted, new facts). It validates
// the document against the state, reporting every problem with its path,
// applies the rules, and sets [State.Next]: the next action and its prompt.
//
// [Store] keeps one file per deliberation under a directory, written
// atomically under a per-file lock, with a JSON-lines transcript beside it;
// its operations ([Store.Start], [Store.Respond], [Store.Evaluate],
// [Store.Recover], [Store.Synthesize], [Store.Abandon]) are what the CLI
// and the MCP tools call. The transcript records every accepted operation,
// so [Replay] rebuilds a lost or corrupted state exactly. [Synthesize]
// renders the final buckets once the state permits it.
package deliberation
