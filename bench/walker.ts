/**
 * @module bench/walker
 * Time to list a generated 10,000-file project tree with {@link walkProject}: 100 folders of 100
 * files, nested `.gitignore` files, a `.lociignore`, a pruned `node_modules`, some binaries.
 * Prints the median of 7 runs after a warm-up, with a plain recursive `readdirSync` + `lstatSync`
 * walk of the same tree as the in-run baseline. The tree is created in a temp folder and removed.
 *
 * Run: `node --import tsx bench/walker.ts [--files 10000] [--json]`
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { walkProject } from '../src/ingest/project/index.js';

const args = process.argv.slice(2);
const filesArg = args.indexOf('--files');
const FILES = filesArg >= 0 ? Number(args[filesArg + 1]) : 10_000;
const JSON_OUT = args.includes('--json');
const PER_DIR = 100;

const root = mkdtempSync(join(tmpdir(), 'loci-walk-bench-'));
try {
  writeFileSync(join(root, '.gitignore'), '*.log\n/generated/\n');
  writeFileSync(join(root, '.lociignore'), 'secret-*\n');
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  for (let i = 0; i < 500; i++) writeFileSync(join(root, 'node_modules', 'pkg', `m${i}.js`), 'x');
  for (let d = 0; d < Math.ceil(FILES / PER_DIR); d++) {
    const dir = join(root, `pkg${d % 10}`, `mod${d}`);
    mkdirSync(dir, { recursive: true });
    if (d % 10 === 0) writeFileSync(join(dir, '.gitignore'), 'tmp-*\n!tmp-keep.txt\n');
    for (let f = 0; f < PER_DIR && d * PER_DIR + f < FILES; f++) {
      const ext = f % 25 === 0 ? 'png' : f % 7 === 0 ? 'md' : 'ts';
      writeFileSync(join(dir, `file${f}.${ext}`), `export const v${f} = ${f};\n`);
    }
  }

  const walkOnce = (): { files: number; skipped: number } => {
    let files = 0;
    let skipped = 0;
    for (const item of walkProject({ root })) {
      if (item.kind === 'file') files++;
      else skipped++;
    }
    return { files, skipped };
  };
  const plainWalk = (dir: string): number => {
    let n = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) n += e.name === 'node_modules' ? 0 : plainWalk(p);
      else {
        lstatSync(p);
        n++;
      }
    }
    return n;
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const time = (fn: () => unknown): number => {
    fn();
    const ts: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t0 = process.hrtime.bigint();
      fn();
      ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return median(ts);
  };
  const counts = walkOnce();
  const ms = time(walkOnce);
  const baseMs = time(() => plainWalk(root));
  if (JSON_OUT)
    console.log(JSON.stringify({ node: process.version, treeFiles: FILES, ...counts, walkMs: ms, plainMs: baseMs }));
  else {
    console.log(
      `walkProject over ${FILES} files (+500 in a pruned node_modules), median of 7 runs, node ${process.version}`,
    );
    console.log(`  walkProject:  ${ms.toFixed(1)} ms  (${counts.files} files, ${counts.skipped} skipped)`);
    console.log(`  baseline readdirSync + lstatSync recursion: ${baseMs.toFixed(1)} ms`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
