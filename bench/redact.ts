/**
 * Redaction audit and speed: what `redactSecrets` would replace in a source tree and in real
 * transcripts, each redaction listed, and how fast it runs.
 * Usage: npm run bench -- redact [--tree <dir>]… [--transcripts <dir>] [--runs 5] [--quiet] [--json]
 *
 * - tree: every text file under `--tree` (default: this repository's src, test, docs, bench,
 *   scripts and top-level files; node_modules, dist and .git skipped), redacted whole;
 * - transcripts: every conversation under `--transcripts` (default `../shared/data/transcripts`
 *   next to the repository; skipped with a note when absent), parsed as the miner parses it, each
 *   message and title redacted as the miner redacts it;
 * - raw transcripts: every string value of every JSON record in those files (tool calls and
 *   their output included, which the miner does not all store today), redacted one by one — a
 *   harder test of false redactions than the messages alone;
 * - speed: the message texts, the raw strings and the tree redacted `--runs` times each (median
 *   MB/s of UTF-16 text in this process).
 * Each redaction prints `where:line kind value-in-context` (`--quiet`: counts only). Exit 0.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConversations, parseSlackChannel, type Conversation } from '../src/ingest/convos/index.js';
import { findSecrets, redactSecrets } from '../src/redact/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const many = (name: string) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]!] : []));
const one = (name: string, def: string) => many(name)[0] ?? def;
const quiet = args.includes('--quiet');
const asJson = args.includes('--json');
const runs = Number(one('runs', '5'));
const trees = many('tree');
const transcripts = one('transcripts', join(ROOT, '..', 'shared', 'data', 'transcripts'));

interface Found {
  where: string;
  line: number;
  kind: string;
  context: string;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);
const TEXT = new RegExp(
  String.raw`\.(?:ts|mts|cts|js|mjs|cjs|json|md|txt|yml|yaml|toml|sh|jsonl|html|css|env|example|gitignore|py|` +
    String.raw`rb|go|rs|java|c|h|cfg|ini|conf|rst)$|^[^.]+$`,
  'i',
);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && TEXT.test(e.name) && statSync(p).size < 8_000_000) out.push(p);
  }
  return out;
}

function defaultTree(): string[] {
  const files = ['src', 'test', 'docs', 'bench', 'scripts']
    .filter((d) => existsSync(join(ROOT, d)))
    .flatMap((d) => walk(join(ROOT, d)));
  for (const e of readdirSync(ROOT, { withFileTypes: true }))
    if (e.isFile() && TEXT.test(e.name) && e.name !== 'package-lock.json') files.push(join(ROOT, e.name));
  return files.sort();
}

/** The hits of `text`, each with its line and the secret in a short context. */
function audit(where: string, text: string, out: Found[]): void {
  for (const h of findSecrets(text)) {
    const line = text.slice(0, h.start).split('\n').length;
    const a = Math.max(text.lastIndexOf('\n', h.start - 1) + 1, h.start - 40);
    const nl = text.indexOf('\n', h.end);
    const b = Math.min(nl < 0 ? text.length : nl, h.end + 30);
    const secret = text.slice(h.start, h.end);
    const shown = secret.length > 60 ? `${secret.slice(0, 57)}…` : secret;
    out.push({
      where,
      line,
      kind: h.kind,
      context: `${text.slice(a, h.start)}⟦${shown}⟧${text.slice(h.end, b)}`.replace(/\s+/g, ' '),
    });
  }
}

function conversationsUnder(dir: string): { where: string; convs: Conversation[] }[] {
  const out: { where: string; convs: Conversation[] }[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const days = readdirSync(p).filter((n) => /^\d{4}-\d{2}-\d{2}\.json$/.test(n));
      if (days.length) {
        const r = parseSlackChannel(
          p,
          days.map((name) => ({ name, content: readFileSync(join(p, name), 'utf8') })),
        );
        out.push({ where: relative(dir, p), convs: r.conversations });
      } else for (const sub of conversationsUnder(p)) out.push({ where: join(e.name, sub.where), convs: sub.convs });
    } else if (/\.(?:jsonl?|txt|md)$/.test(e.name) && e.name !== 'README.md') {
      out.push({ where: e.name, convs: parseConversations(p, readFileSync(p, 'utf8')).conversations });
    }
  }
  return out;
}

/** Median MB/s of redacting `texts` `runs` times (the count is checked against the audit). */
function speed(texts: readonly string[], expected: number): number {
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    let n = 0;
    for (const t of texts) n += redactSecrets(t).count;
    times.push((performance.now() - t0) / 1000);
    if (n !== expected) throw new Error(`inconsistent counts ${n} ≠ ${expected}`);
  }
  times.sort((a, b) => a - b);
  return Math.round((chars / 1e6 / times[Math.floor(times.length / 2)]!) * 10) / 10;
}

/** Every string leaf of a JSON value. */
function strings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
}

function rawFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) rawFiles(p, out);
    else if (/\.jsonl?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

const report: Record<string, unknown> = {};
const all: Found[] = [];

// ── tree ────────────────────────────────────────────────────────────────────
{
  const files = trees.length ? trees.flatMap((t) => (statSync(t).isDirectory() ? walk(t) : [t])) : defaultTree();
  const found: Found[] = [];
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  files.forEach((f, i) => audit(relative(trees.length ? process.cwd() : ROOT, f), texts[i]!, found));
  const chars = texts.reduce((n, t) => n + t.length, 0);
  report['tree'] = {
    files: files.length,
    mchars: Math.round(chars / 1e4) / 100,
    redactions: found.length,
    MBps: speed(texts, found.length),
  };
  all.push(...found.map((x) => ({ ...x, where: `tree:${x.where}` })));
}

// ── transcripts ─────────────────────────────────────────────────────────────
if (!existsSync(transcripts)) {
  report['transcripts'] = { skipped: `${transcripts} is absent` };
} else {
  const found: Found[] = [];
  const texts: string[] = [];
  let messages = 0;
  for (const { where, convs } of conversationsUnder(transcripts)) {
    for (const c of convs) {
      if (c.title) {
        texts.push(c.title);
        audit(`${where} (title)`, c.title, found);
      }
      for (const m of c.messages) {
        messages++;
        texts.push(m.text);
        audit(`${where} #${messages}`, m.text, found);
      }
    }
  }
  const chars = texts.reduce((n, t) => n + t.length, 0);
  report['transcripts'] = {
    messages,
    mchars: Math.round(chars / 1e4) / 100,
    redactions: found.length,
    MBps: speed(texts, found.length),
  };
  all.push(...found.map((x) => ({ ...x, where: `transcripts:${x.where}` })));

  const raw: Found[] = [];
  const leaves: string[] = [];
  for (const f of rawFiles(transcripts)) {
    const content = readFileSync(f, 'utf8');
    const records = f.endsWith('.jsonl') ? content.split('\n') : [content];
    records.forEach((line, i) => {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        return;
      }
      const mine: string[] = [];
      strings(v, mine);
      for (const t of mine) {
        leaves.push(t);
        audit(`${relative(transcripts, f)} record ${i + 1}`, t, raw);
      }
    });
  }
  const rawChars = leaves.reduce((n, t) => n + t.length, 0);
  report['transcriptsRaw'] = {
    strings: leaves.length,
    mchars: Math.round(rawChars / 1e4) / 100,
    redactions: raw.length,
    MBps: speed(leaves, raw.length),
  };
  all.push(...raw.map((x) => ({ ...x, where: `raw:${x.where}` })));
}

const kinds: Record<string, number> = {};
for (const f of all) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
report['kinds'] = kinds;
report['runs'] = runs;
if (asJson) {
  console.log(JSON.stringify({ ...report, redactions: quiet ? undefined : all }, null, 2));
} else {
  if (!quiet) for (const f of all) console.log(`${f.where}:${f.line}\t${f.kind}\t${f.context}`);
  console.log(JSON.stringify(report));
}
