/**
 * @module test/helpers/corpus
 * Deterministic generated project trees for integration tests and benches.
 */
import { writeTree } from './cli.js';

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of and to in is that for it as with was on be by this are from or at an which have not were but ' +
  'palace drawer memory search index token vector graph session agent hook recall query rank fusion stem ' +
  'migrate decide release deploy server client cache table schema record parse chunk mine store ' +
  'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega orbit comet nebula quasar pulsar ' +
  'river mountain forest valley ocean desert island harbor bridge tower garden market library museum'
).split(' ');

/** A paragraph of `n` pseudo-random words. */
export function prose(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() ** 1.6 * WORDS.length)]!);
  out[0] = out[0]![0]!.toUpperCase() + out[0]!.slice(1);
  return out.join(' ') + '.';
}

/** A markdown document with headings and paragraphs (~`size` chars). */
export function markdownDoc(r: () => number, size: number, title: string): string {
  let s = `# ${title}\n\n`;
  let h = 0;
  while (s.length < size) {
    if (r() < 0.2) s += `## Section ${++h}\n\n`;
    s += prose(r, 20 + Math.floor(r() * 60)) + '\n\n';
  }
  return s;
}

/** A TypeScript-like source file with functions (~`size` chars). */
export function codeDoc(r: () => number, size: number): string {
  let s = "import { x } from './x.js';\n\n";
  let i = 0;
  while (s.length < size) {
    s += `/** ${prose(r, 8)} */\nexport function fn${i++}(a: number, b: string): string {\n`;
    const lines = 2 + Math.floor(r() * 12);
    for (let j = 0; j < lines; j++) s += `  const v${j} = ${JSON.stringify(prose(r, 4))}; // ${prose(r, 3)}\n`;
    s += '  return b;\n}\n\n';
  }
  return s;
}

/** Writes a tree of `files` files (markdown and code, ~`avg` chars each) under `root`. */
export function generateTree(root: string, files: number, seed = 1, avg = 2000): void {
  const r = rng(seed);
  const tree: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const dir = `dir${i % 7}/sub${i % 3}`;
    const size = Math.floor(avg * (0.3 + r() * 1.4));
    if (i % 2) tree[`${dir}/file${i}.md`] = markdownDoc(r, size, `Doc ${i}`);
    else tree[`${dir}/file${i}.ts`] = codeDoc(r, size);
  }
  writeTree(root, tree);
}
