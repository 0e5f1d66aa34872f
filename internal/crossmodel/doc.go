// Package crossmodel routes a reasoning method with a codex_role to a second
// model (seed 000, "Cross-Model Routing"): it builds the nonce-bounded prompt
// for the red_team, failure or critic perspective, applies the gate (a
// consultant available, codex.elicitation.enabled not false, codex.disabled
// not true, the .codexignore pre-flight), writes the prompt to
// tmp/{workflow}/{id}/elicitation/codex-prompt-{slug}.txt, runs the
// consultant and writes its answer to codex-{slug}.md, removing the prompt
// file afterwards.
//
// It lives in its own package rather than in method because it needs the
// consultant layer (consult) and the settings (config), which the method
// registry must not depend on.
package crossmodel
