/**
 * LoCoMo retrieval through the product path (`loci bench locomo`), with the plain-BM25 baseline
 * in the same run. Usage: node --import tsx bench/locomo.ts [--data FILE] [--captions]
 */
import { join } from 'node:path';
import { runLocomoBench } from '../dist/internal.js';

const i = process.argv.indexOf('--data');
const data =
  i > 0
    ? process.argv[i + 1]!
    : join(import.meta.dirname ?? '.', '..', '..', 'shared', 'data', 'locomo', 'locomo-dev.json');
const r = await runLocomoBench({ data, captions: process.argv.includes('--captions') });
const f = (x: number) => x.toFixed(3);
const keys = ['any@5', 'any@10', 'frac@5', 'frac@10', 'all@5', 'all@10', 'ndcg@10'] as const;
console.log(`n=${r.n} seconds=${r.seconds}`);
console.log(['', ...keys].join('\t'));
console.log(['loci', ...keys.map((k) => f(r[k]))].join('\t'));
console.log(['bm25', ...keys.map((k) => f(r.baseline[k]))].join('\t'));
for (const c of Object.keys(r.by_category)) {
  console.log([`cat${c} loci`, ...keys.map((k) => f(r.by_category[c]![k]))].join('\t'));
  console.log([`cat${c} bm25`, ...keys.map((k) => f(r.baseline.by_category[c]![k]))].join('\t'));
}
