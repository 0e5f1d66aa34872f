// Drives a whole deliberation through a team server with the TypeScript
// SDK (protocol 2025-11-25, a session): start, then send, wait and
// evaluate each answer, then synthesize. Run by e2e/team:
//   node team-deliberation.mjs URL TOKEN CONSULTANT EVALUATIONS_JSON
// It prints the synthesis's exit reason; any failure exits 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectHTTP, call } from "./lib.mjs";

const [url, token, consultant, evalsJSON] = process.argv.slice(2);
const evals = JSON.parse(evalsJSON).map((e) => JSON.parse(e));
const c = await connectHTTP(new Client({ name: "team-ts", version: "0.0.1" }), url, token);
const fail = (what, r) => {
  console.error(`${what}: ${JSON.stringify(r)}`);
  process.exit(1);
};
let [r, isErr] = await call(c, "deliberation_start", { question: "Should the importer retry on HTTP 429?", facts: ["no new infrastructure"] });
if (isErr) fail("start", r);
const id = r.id;
const actions = ["critique", "coverage_check", "synthesize"];
for (const [i, evaluation] of evals.entries()) {
  [r, isErr] = await call(c, "deliberation_send", { id, consultant });
  if (isErr || r.status !== "running") fail(`send ${i + 1}`, r);
  for (let waits = 0; r.status === "running"; waits++) {
    if (waits > 20) fail("wait: never ended", r);
    [r, isErr] = await call(c, "deliberation_wait", { id, timeout_seconds: 20 });
    if (isErr) fail("wait", r);
  }
  if (r.status !== "done") fail(`consultation ${i + 1}`, r);
  [r, isErr] = await call(c, "deliberation_evaluate", { id, evaluation });
  if (isErr || r.action !== actions[i]) fail(`evaluate ${i + 1}`, r);
}
[r, isErr] = await call(c, "deliberation_synthesize", { id, answer: "Yes: honour Retry-After; no fixed retry cap." });
if (isErr) fail("synthesize", r);
console.log(`deliberation ${id}: ${r.exit_reason}`);
await c.close();
