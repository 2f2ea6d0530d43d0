/**
 * @module bench/chunker
 * Throughput of the structural chunker on a generated, deterministic mix of TypeScript, Python,
 * Go, markdown and plain text (about 40 MB, file sizes 2–60 KB). Prints MB/s per kind and overall
 * (median of 5 runs after a warm-up), with MemPalace's structure-blind window cutter as the in-run
 * baseline (it only looks for line breaks, so it is the upper bound of what cutting can cost).
 *
 * Run: `node --import tsx bench/chunker.ts [--mb 40] [--json]`
 */
import { chunkDocument } from '../src/ingest/project/index.js';

const args = process.argv.slice(2);
const mbArg = args.indexOf('--mb');
const TOTAL_MB = mbArg >= 0 ? Number(args[mbArg + 1]) : 40;
const JSON_OUT = args.includes('--json');

let seed = 42;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const WORDS = (
  'the a palace memory drawer search index chunk token query result vector store file line range heading section code ' +
  'function class method value error option default config path folder project mining wing room hall agent session ' +
  'context recall graph fact entity time date'
).split(' ');
const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const ident = (): string => pick(WORDS) + pick(WORDS).replace(/^./, (c) => c.toUpperCase());

function tsFile(bytes: number): string {
  const out: string[] = ["import { readFileSync } from 'node:fs';", "import type { Options } from './options.js';", ''];
  let size = 0;
  while (size < bytes) {
    const name = ident();
    const block =
      rnd() < 0.3
        ? [
            `/** ${words(10)}. */`,
            `export class ${name.replace(/^./, (c) => c.toUpperCase())} {`,
            `  private readonly cache = new Map<string, number>();`,
            ...Array.from({ length: 2 + Math.floor(rnd() * 5) }, () => [
              '',
              `  ${ident()}(value: string, opts: Options = {}): number {`,
              `    const text = \`${words(4)} \${value}\`; // ${words(3)}`,
              `    if (text.includes('{')) return this.cache.get(text) ?? 0;`,
              `    for (const part of text.split(/[,;]/)) this.cache.set(part, part.length);`,
              `    return text.length + (opts.limit ?? 10);`,
              '  }',
            ]).flat(),
            '}',
          ]
        : [
            `// ${words(8)}`,
            `export function ${name}(input: string, limit = ${Math.floor(rnd() * 100)}): string[] {`,
            `  const out: string[] = [];`,
            ...Array.from({ length: 3 + Math.floor(rnd() * 12) }, () => `  out.push("${words(5)}".slice(0, limit));`),
            `  return out;`,
            '}',
          ];
    const s = block.join('\n') + '\n\n';
    out.push(s);
    size += s.length;
  }
  return out.join('\n');
}

function pyFile(bytes: number): string {
  const out: string[] = ['import os', 'from typing import Any', ''];
  let size = 0;
  while (size < bytes) {
    const s = [
      rnd() < 0.3 ? '@dataclass' : `# ${words(6)}`,
      `def ${ident()}(path: str, limit: int = 10) -> list[str]:`,
      `    """${words(12)}"""`,
      ...Array.from({ length: 3 + Math.floor(rnd() * 10) }, () => `    result.append("${words(4)}")  # ${words(2)}`),
      '    return result',
      '',
      '',
    ].join('\n');
    out.push(s);
    size += s.length;
  }
  return out.join('\n');
}

function goFile(bytes: number): string {
  const out: string[] = ['package main', '', 'import (', '\t"fmt"', '\t"strings"', ')', ''];
  let size = 0;
  while (size < bytes) {
    const s = [
      `// ${ident()} ${words(8)}`,
      `func ${ident()}(s string, n int) (string, error) {`,
      ...Array.from(
        { length: 3 + Math.floor(rnd() * 10) },
        () => `\tif strings.Contains(s, "${words(2)}") { return fmt.Sprintf("%s", s), nil }`,
      ),
      '\treturn "", nil',
      '}',
      '',
    ].join('\n');
    out.push(s);
    size += s.length;
  }
  return out.join('\n');
}

function mdFile(bytes: number): string {
  const out: string[] = [`# ${words(3)}`, ''];
  let size = 0;
  while (size < bytes) {
    const r = rnd();
    let s: string;
    if (r < 0.15) s = `${'#'.repeat(2 + Math.floor(rnd() * 2))} ${words(3)}\n`;
    else if (r < 0.3)
      s =
        '```ts\n' +
        Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => `const ${ident()} = "${words(3)}";`).join('\n') +
        '\n```\n';
    else if (r < 0.45) s = Array.from({ length: 3 + Math.floor(rnd() * 5) }, () => `- ${words(8)}`).join('\n') + '\n';
    else s = Array.from({ length: 2 + Math.floor(rnd() * 4) }, () => `${words(12)}.`).join(' ') + '\n';
    out.push(s);
    size += s.length + 1;
  }
  return out.join('\n');
}

function textFile(bytes: number): string {
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const s = Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => `${words(10)}.`).join('\n') + '\n';
    out.push(s);
    size += s.length + 1;
  }
  return out.join('\n');
}

const KINDS = [
  { name: 'typescript', ext: 'ts', make: tsFile, share: 0.3 },
  { name: 'python', ext: 'py', make: pyFile, share: 0.15 },
  { name: 'go', ext: 'go', make: goFile, share: 0.1 },
  { name: 'markdown', ext: 'md', make: mdFile, share: 0.3 },
  { name: 'text', ext: 'txt', make: textFile, share: 0.15 },
] as const;

const corpus: { kind: string; rel: string; text: string }[] = [];
for (const k of KINDS) {
  let made = 0;
  let i = 0;
  while (made < TOTAL_MB * 1e6 * k.share) {
    const text = k.make(2000 + Math.floor(rnd() * 58000));
    corpus.push({ kind: k.name, rel: `f${i++}.${k.ext}`, text });
    made += text.length;
  }
}

/** Baseline: MemPalace's `chunk_text` (800-char window, 100 overlap, cut at the last blank line or
 *  line end after the window's midpoint, drop pieces under 50 chars), ported line for line. */
function mempalaceWindows(text: string, size = 800, overlap = 100, min = 50): number {
  const t = text.trim();
  let n = 0;
  let start = 0;
  while (start < t.length) {
    let end = Math.min(start + size, t.length);
    if (end < t.length) {
      const mid = start + size / 2;
      let cut = t.lastIndexOf('\n\n', end);
      if (cut > mid) end = cut;
      else {
        cut = t.lastIndexOf('\n', end);
        if (cut > mid) end = cut;
      }
    }
    if (t.slice(start, end).trim().length >= min) n++;
    start = end < t.length ? end - overlap : t.length;
  }
  return n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MB = (chars: number): number => chars / 1e6;

const results: Record<string, { mb: number; mbPerSec: number; chunks: number; avgChars: number }> = {};
for (const k of [...KINDS.map((k) => k.name), 'all']) {
  const docs = k === 'all' ? corpus : corpus.filter((d) => d.kind === k);
  const chars = docs.reduce((a, d) => a + d.text.length, 0);
  let chunks = 0;
  let chunkChars = 0;
  // warm-up
  for (const d of docs) {
    for (const c of chunkDocument(d.rel, d.text)) {
      chunks++;
      chunkChars += c.text.length;
    }
  }
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (const d of docs) chunkDocument(d.rel, d.text);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  results[k] = {
    mb: +MB(chars).toFixed(1),
    mbPerSec: +(MB(chars) / median(times)).toFixed(1),
    chunks,
    avgChars: Math.round(chunkChars / chunks),
  };
}
const baseTimes: number[] = [];
for (let r = 0; r < 5; r++) {
  const t0 = process.hrtime.bigint();
  for (const d of corpus) mempalaceWindows(d.text);
  baseTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
const all = results['all']!;
const baseline = +(all.mb / median(baseTimes)).toFixed(1);

if (JSON_OUT) console.log(JSON.stringify({ node: process.version, results, baselineMempalaceWindowMBps: baseline }));
else {
  console.log(
    `chunker throughput (node ${process.version}, ${corpus.length} files, median of 5 runs; MB = 10^6 UTF-16 chars)`,
  );
  for (const [k, r] of Object.entries(results)) {
    console.log(
      `  ${k.padEnd(11)} ${String(r.mb).padStart(6)} MB  ${String(r.mbPerSec).padStart(7)} MB/s  ` +
        `${String(r.chunks).padStart(7)} chunks  avg ${r.avgChars} chars`,
    );
  }
  console.log(`  baseline: MemPalace-style fixed windows (800/100, no structure) ${baseline} MB/s`);
}
