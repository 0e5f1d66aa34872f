// A consultation that takes longer than the TypeScript SDK's default request
// timeout (60 s) completes over MCP: deliberation_send returns at once and
// deliberation_wait, called with the SDK's defaults, returns within 50 s each
// time, sending progress notifications, until the answer is recorded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { newClient, connectStdio, call, resultOf } from "./lib.mjs";

const seconds = 63; // past the 60 s default, close to it so the suite stays fast

test(`a ${seconds} s consultation completes under the SDK's default request timeout`, { timeout: 150_000 }, async () => {
  const home = mkdtempSync(path.join(tmpdir(), "elicit-home-"));
  const consultant = path.join(mkdtempSync(path.join(tmpdir(), "elicit-consultant-")), "slow.sh");
  writeFileSync(consultant, `cat >/dev/null\nsleep ${seconds}\necho '1. Honour Retry-After (client.py:88). EVIDENCE.'\n`);
  const c = await connectStdio(newClient("long consultation"), { ELICIT_HOME: home });
  let [r] = await call(c, "deliberation_start", { question: "Should the importer retry on HTTP 429?" });
  const id = r.id;
  const began = Date.now();
  [r] = await call(c, "deliberation_send", { id, consultant: `command:sh ${consultant}` });
  assert.equal(r.status, "running");
  assert.ok(Date.now() - began < 10_000, "send must return at once");

  let progress = 0;
  let waits = 0;
  for (;;) {
    waits++;
    // No timeout option: the SDK's default (60 s) applies to every call.
    const res = await c.callTool({ name: "deliberation_wait", arguments: { id } }, undefined, { onprogress: () => progress++ });
    [r] = resultOf("deliberation_wait", res);
    if (r.status !== "running") break;
    assert.ok(waits < 10, "the consultation never ended");
  }
  const took = Date.now() - began;
  assert.equal(r.status, "done", JSON.stringify(r));
  assert.ok(took > 60_000, `the consultation took ${took} ms, not past the 60 s default`);
  assert.ok(waits >= 2, `${waits} waits`);
  assert.ok(progress > 0, "no progress notifications");
  assert.match(r.result.answer, /Honour Retry-After/);
  assert.equal(r.next.awaiting, "evaluation");

  [r] = await call(c, "deliberation_status", { id });
  assert.equal(r.consultation, undefined);
  assert.equal(r.next.awaiting, "evaluation");
  await c.close();
});
