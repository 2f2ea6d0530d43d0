/**
 * Mining throughput on a generated tree of text and code files (lexical only).
 * Usage: node --import tsx bench/mine-throughput.ts [--mb 100] [--keep DIR]
 * Prints JSON: bytes, files, seconds, MB/s for `palace.mine`, and for a baseline that only reads
 * and hashes the same files (the I/O floor), in the same process.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../dist/index.js';
import { generateTree } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const mb = Number(arg('mb', '100'));
const work = mkdtempSync(join(tmpdir(), 'loci-bench-mine-'));
const tree = join(work, 'tree');
const avg = 10_000;
const files = Math.round((mb * 1e6) / avg);
let t = performance.now();
generateTree(tree, files, 11, avg);
const genSeconds = (performance.now() - t) / 1000;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}
const all = walk(tree);
const bytes = all.reduce((s, p) => s + statSync(p).size, 0);

// Baseline: read + sha256 every file (the floor any miner pays).
t = performance.now();
for (const p of all) createHash('sha256').update(readFileSync(p)).digest();
const floorSeconds = (performance.now() - t) / 1000;

const palace = await openPalace({ home: join(work, 'home') });
t = performance.now();
const cpu0 = process.cpuUsage();
const workers = process.argv.includes('--workers') ? Number(arg('workers', '1')) : undefined;
const s = await palace.mine(tree, workers === undefined ? {} : { workers });
const cpu = process.cpuUsage(cpu0);
const mineSeconds = (performance.now() - t) / 1000;
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
t = performance.now();
const again = await palace.mine(tree);
const remineSeconds = (performance.now() - t) / 1000;
const status = await palace.status();
await palace.close();
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      bench: 'mine-throughput',
      files: all.length,
      megabytes: +(bytes / 1e6).toFixed(1),
      generate_seconds: +genSeconds.toFixed(2),
      loci: {
        seconds: +mineSeconds.toFixed(2),
        mb_per_s: +(bytes / 1e6 / mineSeconds).toFixed(1),
        cpu_seconds: +cpuSeconds.toFixed(2),
        mb_per_cpu_s: +(bytes / 1e6 / cpuSeconds).toFixed(1),
        drawers: s.drawersAdded,
        db_mb: +(status.bytes / 1e6).toFixed(1),
      },
      baseline_read_and_hash: { seconds: +floorSeconds.toFixed(2), mb_per_s: +(bytes / 1e6 / floorSeconds).toFixed(1) },
      remine_unchanged: {
        seconds: +remineSeconds.toFixed(2),
        drawers_added: again.drawersAdded,
        files_unchanged: again.filesUnchanged,
      },
    },
    null,
    2,
  ),
);
