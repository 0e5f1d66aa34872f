// Helpers shared by the end-to-end suites: start elicit, connect the official
// TypeScript SDK client, call tools and read their structured results.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "..", "..");
export const bin = process.env.ELICIT_BIN || path.join(root, "bin", "elicit");
export const formsDir = path.join(root, "form", "testdata", "forms");

// newClient makes a client; with an elicitation answer function it declares
// the elicitation capability and answers with it.
export function newClient(name, answer) {
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name, version: "0.0.1" }, { capabilities });
  if (answer) {
    client.elicitations = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      client.elicitations.push(req.params);
      return answer(req.params);
    });
  }
  return client;
}

// connectStdio starts `elicit serve` and connects client to it.
export async function connectStdio(client, env = {}) {
  const transport = new StdioClientTransport({ command: bin, args: ["serve"], env: { ...process.env, ...env }, stderr: "pipe" });
  await client.connect(transport);
  return client;
}

// startHTTP starts `elicit serve --http ...` and resolves to its URL and
// the token its clients send: the one it generated when given none (read
// from the file it names on stderr; ELICIT_HOME is a fresh folder unless
// env names one).
export async function startHTTP(extraArgs = [], env = {}) {
  const home = env.ELICIT_HOME ?? mkdtempSync(path.join(tmpdir(), "elicit-serve-"));
  const child = spawn(bin, ["serve", "--http", "127.0.0.1:0", ...extraArgs], { env: { ...process.env, ELICIT_HOME: home, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const m = stderr.match(/serving MCP at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`elicit serve exited ${code}: ${stderr}`)));
  });
  const file = stderr.match(/(?:generated one in|the one in) (\S+)/);
  const token = file ? readFileSync(file[1], "utf8").trim() : undefined;
  return { url, token, child, stderr, stop: async () => { child.kill("SIGTERM"); await once(child, "exit"); } };
}

export async function connectHTTP(client, url, token) {
  const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

// call calls a tool and returns [its result's JSON, isError]; it checks the
// result is one text block and nothing else (each byte is sent once).
export async function call(client, name, args) {
  return resultOf(name, await client.callTool({ name, arguments: args }));
}

// resultOf decodes a tool result: one text block of JSON, no structured
// content.
export function resultOf(name, res) {
  if (res.structuredContent !== undefined || res.content.length !== 1) {
    throw new Error(`${name}: ${res.content.length} content blocks and structured content ${JSON.stringify(res.structuredContent)}; want one text block only`);
  }
  return [JSON.parse(res.content[0].text), Boolean(res.isError)];
}

// inspected is the JSON of a tool result the Inspector CLI printed.
export function inspected(stdout) {
  const out = JSON.parse(stdout);
  return resultOf("inspector", out.result ?? out)[0];
}
