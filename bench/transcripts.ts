/**
 * Real-transcripts retrieval through the product path (`loci bench transcripts`), with plain BM25
 * in the same run. Usage: node --import tsx bench/transcripts.ts [--data DIR] [--show] [--json]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const r = spawnSync(
  process.execPath,
  [join(import.meta.dirname ?? '.', '..', 'bin', 'loci.js'), 'bench', 'transcripts', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
