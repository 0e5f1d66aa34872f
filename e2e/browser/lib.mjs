// Helpers shared by the browser suites: Debian's Chromium driven by
// playwright-core, the elicit binary, the widget loaded into a page with a
// stand-in for the chat host's sendPrompt, and watchers that fail a test on
// a console error, an uncaught exception, a dialog or a network request.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "..", "..");
export const bin = process.env.ELICIT_BIN || path.join(root, "bin", "elicit");
// Every elicit a suite starts gets a home of its own unless one is given:
// the suites never write to the real ~/.elicit (its response log).
if (!process.env.ELICIT_HOME) process.env.ELICIT_HOME = fs.mkdtempSync(path.join(os.tmpdir(), "elicit-home-"));
export const widgetForms = path.join(root, "form", "widget", "testdata", "forms");
export const benchForm = path.join(root, "form", "testdata", "bench", "six-fields.json");

// The flags hosts.md gives for Debian's Chromium on a machine without a
// network: without the background-networking ones it keeps trying hosts
// it cannot reach.
const chromiumFlags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

// launch starts Chromium with a fresh user data directory.
export async function launch() {
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), "elicit-chromium-"));
  const context = await chromium.launchPersistentContext(userData, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: chromiumFlags,
    headless: true,
    locale: "en-US",
    timezoneId: "UTC",
    viewport: { width: 760, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userData, { recursive: true, force: true });
    },
  };
}

// watch records what a page does that a test may forbid: console errors,
// uncaught exceptions, dialogs and every network request.
export function watch(page) {
  const seen = { errors: [], dialogs: [], requests: [] };
  page.on("console", (m) => { if (m.type() === "error") seen.errors.push(m.text()); });
  page.on("pageerror", (e) => seen.errors.push(e.message));
  page.on("dialog", (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on("request", (r) => seen.requests.push(r.method() + " " + r.url()));
  return seen;
}

// run runs elicit and resolves to {code, stdout, stderr}; it never rejects
// on a non-zero exit.
export function run(args, opts = {}) {
  return new Promise((resolve) => {
    execFile(bin, args, { maxBuffer: 16 << 20, ...opts }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

// render returns the widget HTML of a form file.
export async function render(formFile, extra = []) {
  const r = await run(["form", "render", formFile, "--surface", "widget", "--html", ...extra]);
  if (r.code !== 0) throw new Error(`render ${formFile}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

// collect runs `elicit form collect FORM` on answers text (any shape collect
// takes, the widget's chat message included).
export async function collect(formFile, answersText, extra = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "elicit-answers-"));
  const file = path.join(dir, "answers.txt");
  fs.writeFileSync(file, answersText);
  const r = await run(["form", "collect", ...extra, formFile, file]);
  fs.rmSync(dir, { recursive: true, force: true });
  return { code: r.code, out: JSON.parse(r.stdout || "null"), stderr: r.stderr };
}

// loadWidget shows widget HTML in a page the way a chat host does, with a
// sendPrompt that records each message in window.__sent.
export async function loadWidget(page, html) {
  await page.setContent(`<!doctype html><html lang="en"><meta charset="utf-8"><title>host</title>
<script>window.__sent = []; window.sendPrompt = (m) => window.__sent.push(m);</script>
<body style="margin:0;padding:16px">${html}</body></html>`);
}

// sent returns the messages the widget sent.
export function sent(page) {
  return page.evaluate(() => window.__sent);
}

// errorOf returns the message shown beside the field with id.
export function errorOf(page, id) {
  return page.locator(`.f[data-id="${id}"] > .x, .f[data-id="${id}"] .x`).first().textContent();
}

// startOpen runs `elicit form open` and resolves once it has printed the
// page's address on stderr.
export function startOpen(args, env = {}) {
  const child = spawn(bin, ["form", "open", "--no-browser", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "", stderr = "";
  child.stdout.on("data", (c) => { stdout += c; });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
  const url = new Promise((resolve, reject) => {
    child.stderr.on("data", (c) => {
      stderr += c;
      const m = stderr.match(/open (http:\/\/127\.0\.0\.1:\d+\/\S+)/);
      if (m) resolve(m[1]);
    });
    exited.then((r) => reject(new Error(`elicit form open exited ${r.code} before printing its address: ${r.stderr}`)));
  });
  return { child, url, exited };
}

export const tmpdir = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
