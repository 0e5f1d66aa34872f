#!/usr/bin/env node
// Builds elicit's npm packages from release binaries and packs them:
//   node npm/pack.mjs --dist DIR --out DIR [--only linux-x64,...]
// DIR holds goreleaser's build folders (elicit_<goos>_<goarch>[_variant]/elicit[.exe]).
// One package per platform (elicit-<os>-<cpu>: the binary, with os and cpu set so
// npm installs only the matching one) and the main package elicit, whose
// optionalDependencies name them all at the same version. Prints the tarballs.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const { values } = parseArgs({ options: { dist: { type: "string" }, out: { type: "string" }, only: { type: "string" } } });
if (!values.dist || !values.out) {
  console.error("usage: node npm/pack.mjs --dist DIR --out DIR [--only linux-x64,...]");
  process.exit(2);
}
const platforms = JSON.parse(readFileSync(path.join(here, "platforms.json"), "utf8"));
const main = JSON.parse(readFileSync(path.join(here, "elicit", "package.json"), "utf8"));
const only = values.only ? values.only.split(",") : null;
const out = path.resolve(values.out);
const stage = path.join(out, "stage");
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const pack = (dir) => {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
  console.log(path.join(out, name));
};

for (const p of platforms) {
  if (only && !only.includes(`${p.os}-${p.cpu}`)) continue;
  const exe = p.goos === "windows" ? "elicit.exe" : "elicit";
  const build = readdirSync(values.dist).find((d) => d === `elicit_${p.goos}_${p.goarch}` || d.startsWith(`elicit_${p.goos}_${p.goarch}_`));
  const src = build && path.join(values.dist, build, exe);
  if (!src || !existsSync(src)) {
    console.error(`npm/pack.mjs: no ${p.goos}/${p.goarch} binary in ${values.dist} (want elicit_${p.goos}_${p.goarch}*/${exe})`);
    process.exit(1);
  }
  const dir = path.join(stage, p.package);
  mkdirSync(path.join(dir, "bin"), { recursive: true });
  copyFileSync(src, path.join(dir, "bin", exe));
  chmodSync(path.join(dir, "bin", exe), 0o755);
  copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  const pkg = {
    name: p.package, version: main.version,
    description: `The elicit binary for ${p.os} ${p.cpu} (installed by the elicit package).`,
    homepage: main.homepage, repository: main.repository, license: main.license,
    os: [p.os], cpu: [p.cpu], files: ["bin", "LICENSE"], preferUnplugged: true,
  };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  pack(dir);
}

const dir = path.join(stage, "elicit");
cpSync(path.join(here, "elicit"), dir, { recursive: true });
copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
pack(dir);
