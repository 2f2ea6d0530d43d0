/**
 * Runs one bench by name: `npm run bench -- <name> [args]`. See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const file = name ? join(here, `${name}.ts`) : '';
if (!name || !existsSync(file)) {
  console.error(`usage: npm run bench -- <name> [args]
benches: mine, search-latency, chunker, walker, convos, kg, mcp, hooks, startup, payload, locomo,
transcripts, redact, extract, dream, serve, context, ui`);
  process.exit(2);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
