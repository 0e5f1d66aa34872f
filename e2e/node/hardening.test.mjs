// What an exploratory tester broke with the real TypeScript SDK client and
// the Inspector CLI: each case fails on the server as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { bin, formsDir, newClient, connectStdio, startHTTP, connectHTTP, call, inspected } from "./lib.mjs";

const run = promisify(execFile);
const six = JSON.parse(readFileSync(path.join(formsDir, "six.json"), "utf8"));

test("a huge top selects what the registry has; the server lives on", async () => {
  const c = await connectStdio(newClient("top"));
  let [r, isErr] = await call(c, "elicitation_select_methods", { phase: "forge:3", title: "Architecture design", top: 100000000000 });
  assert.equal(isErr, false, JSON.stringify(r));
  assert.equal(r.status, "OK");
  [r, isErr] = await call(c, "elicitation_select_methods", { phase: "forge:3", title: "Architecture design", top: 9007199254740993 });
  assert.equal(isErr, true);
  assert.deepEqual(r.problems, ["top: is 9007199254740992, want a whole number, 0 to 9007199254740991"]);
  [r, isErr] = await call(c, "deliberation_send", { id: "20260131-171500", max_time_seconds: 10000000000000 });
  assert.equal(isErr, true);
  assert.match(r.problems[0], /^max_time_seconds: is 10000000000000, want a whole number of seconds, 0 to 31536000 \(at most 365 days\)/);
  [r] = await call(c, "elicitation_list_templates", {});
  assert.ok(r.templates.length > 0);
  await c.close();
});

test("an elicitation handler that throws gets the fallback, not a protocol error", async () => {
  const c = await connectStdio(newClient("ask-throws", () => { throw new Error("boom"); }));
  const [r, isErr] = await call(c, "elicitation_ask", { form: six });
  assert.equal(isErr, false);
  assert.equal(r.action, "error");
  assert.equal(r.success, false);
  assert.ok(r.ask_user_question.length > 0 && r.markdown_followup !== undefined, JSON.stringify(r));
  assert.match(r.hint, /^The client's dialog failed \(".*boom.*"\)/);
  await c.close();
});

test("prompts/get refuses unknown arguments and wrong values by name", async () => {
  const c = await connectStdio(newClient("prompts"));
  for (const [name, args, want] of [
    ["deliberate", { quick: "maybe" }, /quick: "maybe" is not yes or no/],
    ["select_methods", { phase: "bogus" }, /phase: "bogus" is not a phase/],
    ["ask", { topik: "x" }, /topik: unknown argument \(prompt ask takes topic\)/],
  ]) {
    await assert.rejects(c.getPrompt({ name, arguments: args }), (err) => err instanceof McpError && err.code === -32602 && want.test(err.message));
  }
  const ok = await c.getPrompt({ name: "deliberate", arguments: { question: "Retry?", quick: "yes" } });
  assert.match(ok.messages[0].content.text, /Use quick mode\./);
  await c.close();
});

test("closing the client with a wait in flight records the consultation as canceled, at once", { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(tmpdir(), "elicit-home-"));
  const consultant = path.join(mkdtempSync(path.join(tmpdir(), "elicit-consultant-")), "slow.sh");
  writeFileSync(consultant, "cat >/dev/null\nsleep 30\n");
  const c = await connectStdio(newClient("close-during-wait"), { ELICIT_HOME: home });
  let [r] = await call(c, "deliberation_start", { question: "Should the importer retry on HTTP 429?" });
  const id = r.id;
  [r] = await call(c, "deliberation_send", { id, consultant: `command:sh ${consultant}` });
  assert.equal(r.status, "running");
  const pending = c.callTool({ name: "deliberation_wait", arguments: { id, timeout_seconds: 20 } }).catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const began = Date.now();
  await c.close();
  await pending;
  const took = Date.now() - began;
  assert.ok(took < 5_000, `close took ${took} ms`);
  const { stdout } = await run(bin, ["deliberate", "status", id, "--json"], { env: { ...process.env, ELICIT_HOME: home } });
  assert.ok(!JSON.parse(stdout).consultation, stdout);
  await assert.rejects(run(bin, ["deliberate", "wait", id], { env: { ...process.env, ELICIT_HOME: home } }),
    (err) => err.code === 3 && /was canceled/.test(err.stderr));
});

test("the bearer scheme is case-insensitive", async () => {
  const server = await startHTTP([], { ELICIT_TOKEN: "s3cret" });
  try {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const res = await fetch(server.url, { method: "POST", headers: { Authorization: `${scheme} s3cret`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } }) });
      await res.arrayBuffer();
      assert.equal(res.status, 200, scheme);
    }
    const c = await connectHTTP(newClient("token"), server.url, "s3cret");
    await c.close();
  } finally {
    await server.stop();
  }
});

test("Inspector CLI: --tool-arg method=34 (sent as a number) injects method 34; wait needs no timeout", async () => {
  const inspector = path.join(path.dirname(new URL(import.meta.url).pathname), "node_modules", ".bin", "mcp-inspector");
  // The Inspector passes the server HOME but not ELICIT_HOME: its
  // deliberations are under HOME/.elicit.
  const home = mkdtempSync(path.join(tmpdir(), "inspector-home-"));
  const env = { ...process.env, HOME: home, ELICIT_HOME: path.join(home, ".elicit"), npm_config_update_notifier: "false" };
  const inspect = (...args) => run(inspector, ["--cli", bin, "serve", ...args], { env, maxBuffer: 16 << 20 });
  let { stdout } = await inspect("--method", "tools/call", "--tool-name", "elicitation_inject_method", "--tool-arg", "method=34");
  let r = inspected(stdout);
  assert.equal(r.num, 34, stdout);
  ({ stdout } = await run(bin, ["deliberate", "start", "--question", "Retry on 429?", "--json"], { env }));
  const { id } = JSON.parse(stdout);
  ({ stdout } = await inspect("--method", "tools/call", "--tool-name", "deliberation_wait", "--tool-arg", `id=${id}`));
  r = inspected(stdout);
  assert.equal(r.status, "idle", stdout);
});

test("serve --http given no token makes one; a command consultant the operator did not allow is refused and does not run", async () => {
  const server = await startHTTP();
  try {
    assert.ok(server.token && !server.stderr.includes(server.token), server.stderr);
    const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    assert.equal(res.status, 401);
    await assert.rejects(connectHTTP(newClient("wrong"), server.url, "wrong"));
    const c = await connectHTTP(newClient("token"), server.url, server.token);
    let [r] = await call(c, "deliberation_start", { question: "Retry on 429?" });
    const marker = path.join(mkdtempSync(path.join(tmpdir(), "elicit-owned-")), "owned");
    let isErr;
    [r, isErr] = await call(c, "deliberation_send", { id: r.id, consultant: `command:sh -c 'id > ${marker}'` });
    assert.equal(isErr, true);
    assert.match(r.problems.join("\n"), /not allowed on this server.*--allow-consultant/);
    assert.equal(existsSync(marker), false);
    await c.close();
  } finally {
    await server.stop();
  }
});
