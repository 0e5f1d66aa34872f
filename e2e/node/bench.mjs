// 1,000 sequential elicitation_render_form calls from the official
// TypeScript SDK client over stdio: total time, calls/s, p50 and p99.
// Run: make bench-mcp (or ELICIT_BIN=... node bench.mjs [N]).
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { newClient, connectStdio, root } from "./lib.mjs";

const n = Number(process.argv[2] || 1000);
const form = JSON.parse(readFileSync(path.join(root, "form", "testdata", "bench", "six-fields.json"), "utf8"));
const client = await connectStdio(newClient("bench"));
for (let i = 0; i < 20; i++) await client.callTool({ name: "elicitation_render_form", arguments: { form } }); // warm up

const times = [];
const start = performance.now();
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const res = await client.callTool({ name: "elicitation_render_form", arguments: { form } });
  times.push(performance.now() - t0);
  if (res.isError) throw new Error(res.content[0].text);
}
const total = performance.now() - start;
await client.close();
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
console.log(JSON.stringify({
  calls: n,
  total_ms: +total.toFixed(1),
  calls_per_s: Math.round((n / total) * 1000),
  p50_ms: +q(0.5).toFixed(3),
  p99_ms: +q(0.99).toFixed(3),
}));

