#!/usr/bin/env node
// Runs the prebuilt elicit binary that npm installed for this platform (one
// of the optional dependencies elicit-<os>-<cpu>), passing arguments,
// standard streams, signals and the exit code through, so `npx elicit serve`
// is elicit's MCP server.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

function binary() {
  if (process.env.ELICIT_BIN) return process.env.ELICIT_BIN;
  const pkg = `elicit-${process.platform}-${process.arch}`;
  const exe = process.platform === "win32" ? "elicit.exe" : "elicit";
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    process.stderr.write(
      `elicit: the package ${pkg} with the binary for this platform is not installed.\n` +
        "It is an optional dependency of elicit: reinstall without --omit=optional or --no-optional\n" +
        "(npm install -g elicit), or install the binary another way:\n" +
        "  go install github.com/elicit/elicit/cmd/elicit@latest\n" +
        "  or download it from https://github.com/elicit/elicit/releases\n" +
        "and set ELICIT_BIN to its path.\n",
    );
    process.exit(127);
  }
}

const child = spawn(binary(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => child.kill(sig));
}
child.on("error", (err) => {
  process.stderr.write(`elicit: cannot start ${err.path}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
