#!/usr/bin/env node
// Measures every test file on its own: CPU seconds (user + sys of the file's process and all it
// waited for, from /proc/self/stat on Linux) and wall seconds, one file at a time so that the
// CPU of each is its own. Run after `npm run build` and `node scripts/build-ui.mjs` (as npm test does).
// With --groups, the units npm test runs (src unit files grouped per folder, see test-files.mjs).
// The files run from JavaScript compiled once (ts-loader.mjs, as npm test does); --tsx runs them through tsx.
// Usage: node scripts/test-times.mjs [--groups] [--tsx] [--json out.json] [--top N] [file-or-folder ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plan, testFiles } from './test-files.mjs';
import { compileTypeScript } from './ts-compile.mjs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

/** CPU seconds of the children this process has waited for (Linux: cutime + cstime, in ticks). */
function childCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: field 3 is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const args = process.argv.slice(2);
let jsonOut;
let top = 15;
let groups = false;
let tsx = false;
const targets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') jsonOut = args[++i];
  else if (args[i] === '--groups') groups = true;
  else if (args[i] === '--tsx') tsx = true;
  else if (args[i] === '--top') top = Number(args[++i]);
  else targets.push(args[i]);
}
const groupDir = mkdtempSync(join(tmpdir(), 'loci-test-groups-'));
const units = plan(root, testFiles(root, targets), groupDir, { isolate: !groups });
const compiled = join(groupDir, 'js');
if (!tsx) await compileTypeScript(root, compiled);
const loader = tsx ? 'tsx' : new URL('./ts-loader.mjs', import.meta.url).href;

const rows = [];
for (const { path, name: file } of units) {
  const cpu0 = childCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', loader, '--test', '--test-reporter=dot', path], {
    encoding: 'utf8',
    env: { ...process.env, LOCI_TEST: '1', ...(tsx ? {} : { LOCI_TS_OUT: compiled }) },
  });
  const row = {
    file,
    cpu: Math.round((childCpu() - cpu0) * 100) / 100,
    wall: Math.round(performance.now() - t0) / 1000,
    ok: r.status === 0,
  };
  rows.push(row);
  const figures = `${row.cpu.toFixed(2).padStart(7)} cpu-s ${row.wall.toFixed(1).padStart(6)} s`;
  process.stderr.write(`${row.ok ? 'ok  ' : 'FAIL'} ${figures}  ${file}\n`);
  // A failed unit's report, so that a failure seen once is not lost.
  if (!row.ok) process.stderr.write(`${r.stdout.slice(-4000)}${r.stderr.slice(-2000)}\n`);
}
const total = rows.reduce((s, r) => s + r.cpu, 0);
const wall = rows.reduce((s, r) => s + r.wall, 0);
console.log(`${rows.length} files, ${total.toFixed(1)} CPU-seconds, ${wall.toFixed(1)} s of wall one at a time`);
for (const r of [...rows].sort((a, b) => b.cpu - a.cpu).slice(0, top)) {
  console.log(
    `${r.cpu.toFixed(1).padStart(7)} cpu-s ${r.wall.toFixed(1).padStart(7)} s  ${r.file}${r.ok ? '' : '  (failed)'}`,
  );
}
rmSync(groupDir, { recursive: true, force: true });
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 2) + '\n');
process.exit(rows.every((r) => r.ok) ? 0 : 1);
