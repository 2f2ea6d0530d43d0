/**
 * @module test/architecture
 * The layering rules of AGENTS.md, checked by machine on every `npm test` by parsing the imports of
 * every source file under `src/`:
 * 1. no import cycle between folders of `src/`;
 * 2. the library (everything but `cli`, `mcp`, `hooks`; the entries included) never imports a front end;
 * 3. front ends reach the library through an entry (the internal `src/internal.ts`, or the public
 *    `src/index.ts`) or a capability's door, not through its inner files (a command loads only the
 *    doors it uses: start-up, issue 12), and one another through their `index.ts` doors;
 * 4. another folder is entered through its `index.ts` door;
 * 5. SQL and the database drivers (better-sqlite3, pg) live in the storage adapters only;
 * 6. the environment is read in one module, `core/env.ts` (and `createPalace` reads none, nor opens a driver);
 * 7. front ends (`cli`, `mcp`, `hooks`, `ui`, `serve`) are protocol adapters: they import neither `store`
 *    nor `kg` (palace owns storage), the documented exception reaches only leaf `core` modules and the
 *    wake-up cache reader, and they hold no ranking logic — no scoring primitive of the library,
 *    no storage-port access, no score arithmetic.
 * 8. the web UI's page (`web/`, bundled for the browser) imports nothing of `src/` at run time: only
 *    types, and only from `src/ui/api-types.ts` (the wire shapes, built from the library's types).
 * Each rule has an explicit list of today's known exceptions (debt, to shrink, never to grow):
 * a new violation fails with the file and the import that broke the rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const FRONT_ENDS = new Set(['cli', 'mcp', 'hooks', 'ui', 'serve']);
/** The entry files front ends may import: the internal entry and the public root. */
const ENTRIES = new Set(['internal.ts', 'index.ts']);
/** Files at the root of `src/` that are entries of the library, not a folder of their own. */
const ENTRY_FOLDER = '(entry)';

interface SourceFile {
  /** Path relative to `src/`, with forward slashes. */
  path: string;
  folder: string;
  text: string;
  /** Relative imports (static and dynamic), resolved to paths relative to `src/` (`.ts`). */
  imports: string[];
}

function listSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listSources(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length === 1 ? ENTRY_FOLDER : parts[0]!;
}

function load(): SourceFile[] {
  return listSources(src).map((abs) => {
    const path = relative(src, abs).split('\\').join('/');
    const text = readFileSync(abs, 'utf8');
    const imports: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      imports.push(
        relative(src, resolve(dirname(abs), spec))
          .split('\\')
          .join('/')
          .replace(/\.js$/, '.ts'),
      );
    }
    return { path, folder: folderOf(path), text, imports };
  });
}

const files = load();

/** Folder → folders it imports (entries excluded: they sit above everything by definition). */
function folderGraph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const f of files) {
    if (f.folder === ENTRY_FOLDER) continue;
    for (const target of f.imports) {
      const to = folderOf(target);
      if (to === f.folder || to === ENTRY_FOLDER) continue;
      if (!g.has(f.folder)) g.set(f.folder, new Set());
      g.get(f.folder)!.add(to);
    }
  }
  return g;
}

/** Known folder cycles, as sorted "a<->b" pairs (debt). */
const KNOWN_CYCLES = new Set<string>([]);

test('no import cycle between folders of src/', () => {
  const g = folderGraph();
  const cycles: string[] = [];
  for (const [a, targets] of g) {
    for (const b of targets) {
      if (a < b && reaches(g, b, a)) {
        const key = `${a}<->${b}`;
        if (!KNOWN_CYCLES.has(key)) cycles.push(key);
      }
    }
  }
  assert.deepEqual(cycles, [], `folder cycles (a imports b and b reaches a): ${cycles.join(', ')}`);
});

function reaches(g: Map<string, Set<string>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const x = stack.pop()!;
    if (x === to) return true;
    if (seen.has(x)) continue;
    seen.add(x);
    for (const y of g.get(x) ?? []) stack.push(y);
  }
  return false;
}

test('the library never imports a front end', () => {
  const bad = files
    .filter((f) => !FRONT_ENDS.has(f.folder))
    .flatMap((f) => f.imports.filter((t) => FRONT_ENDS.has(folderOf(t))).map((t) => `${f.path} -> ${t}`));
  assert.deepEqual(bad, []);
});

/**
 * Files of a folder that other folders may import directly besides its `index.ts`: the leaf
 * modules of `core` (kept separate so that a command loads only the helpers it uses), the port
 * definitions of `store` (types shared by every adapter) and its drawer door `store/drawers.ts` (the
 * SQLite drawer store alone, so a palace opens without the graph and vector adapters). Anything else
 * goes through the door.
 */
const OPEN_DOORS = (target: string): boolean =>
  target.startsWith('core/') ||
  target === 'store/ports.ts' ||
  target === 'store/drawers.ts' ||
  target === 'store/shared.ts' ||
  target === 'store/vector-port.ts' ||
  // the redaction rules' version alone (mining fingerprints it on every run; the rules load only to redact)
  target === 'redact/version.ts';

/** Front-end files allowed to import library files directly, with the reason. */
const FRONT_END_DEEP_IMPORTS = new Map<string, string>([
  ['hooks/light-core.ts', 'the hook entry starts without loading the library (documented in ARCHITECTURE.md)'],
]);

test('front ends reach the library only through its entry or its doors', () => {
  const bad: string[] = [];
  for (const f of files) {
    if (!FRONT_ENDS.has(f.folder) || FRONT_END_DEEP_IMPORTS.has(f.path)) continue;
    for (const t of f.imports) {
      const to = folderOf(t);
      if (to === f.folder || ENTRIES.has(t)) continue;
      if (t === `${to}/index.ts` || (!FRONT_ENDS.has(to) && OPEN_DOORS(t))) continue;
      bad.push(`${f.path} -> ${t}`);
    }
  }
  assert.deepEqual(
    bad,
    [],
    'import the library through src/internal.ts or a door, another front end through its index.ts ' +
      '(or add a documented exception)',
  );
});

/** Known deep imports through a side door (debt). */
const KNOWN_SIDE_DOORS = new Set<string>([]);

test('another folder is entered through its index.ts door', () => {
  const bad: string[] = [];
  for (const f of files) {
    if (FRONT_ENDS.has(f.folder) || f.folder === ENTRY_FOLDER) continue;
    for (const t of f.imports) {
      const to = folderOf(t);
      if (to === f.folder || to === ENTRY_FOLDER || t === `${to}/index.ts` || OPEN_DOORS(t)) continue;
      const edge = `${f.path} -> ${t}`;
      if (!KNOWN_SIDE_DOORS.has(edge)) bad.push(edge);
    }
  }
  assert.deepEqual(bad, [], `import ../<folder>/index.js instead of its inner files`);
});

const SQL =
  /\.(?:prepare|exec|query)\(\s*[`'"]\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|WITH|PRAGMA|BEGIN)\b/i;
const DRIVER = /from\s+['"](?:better-sqlite3|pg)['"]|import\(\s*['"](?:better-sqlite3|pg)['"]\s*\)/;
/** Folders and files that may hold SQL: the storage adapters (and, as debt, the ones listed). */
const SQL_HOMES = (path: string): boolean => path.startsWith('store/sqlite/') || path.startsWith('store/postgres/');
const KNOWN_SQL_OUTSIDE = new Set<string>([]);

test('SQL and the database drivers live in the storage adapters', () => {
  const bad = files
    .filter((f) => !SQL_HOMES(f.path) && !KNOWN_SQL_OUTSIDE.has(f.path))
    .filter((f) => SQL.test(f.text) || DRIVER.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(bad, [], 'move the query behind a storage port (src/store/ports.ts)');
});

/**
 * The one module that reads the environment (`process.env` and every variable by name): everything
 * else is given settings or calls `readSettings` of that module on the environment it was handed.
 * eslint.config.js reads this list (keep it a `new Set([...])` of quoted paths).
 */
const ENV_READERS = new Set(['core/env.ts']);

/** `text` without its comments (close enough for a word search: block comments, then line comments). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

/** A variable read by name: `env['LOCI_X']`, `env.LOCI_X`, `env?.LOCI_X`. */
const VARIABLE_BY_NAME =
  /\benv\??\.(?:\[\s*['"`][A-Z][A-Z0-9_]*['"`]\s*\]|[A-Z][A-Z0-9_]+\b)|\benv\[\s*['"`][A-Z][A-Z0-9_]*['"`]\s*\]/;

test('the environment is read only in core/env.ts', () => {
  const bad = files
    .filter((f) => !ENV_READERS.has(f.path))
    .filter((f) => /process\.env\b/.test(withoutComments(f.text)) || VARIABLE_BY_NAME.test(withoutComments(f.text)))
    .map((f) => f.path);
  assert.deepEqual(bad, [], 'add the variable to LociSettings in src/core/env.ts and read it with readSettings(env)');
});

test('the variable scanner finds every form of a read by name', () => {
  for (const t of ["env['LOCI_HOME']", 'env.LOCI_HOME', 'env?.LOCI_HOME', 'o.env["HOME"]', 'ctx.io.env[`NO_COLOR`]'])
    assert.ok(VARIABLE_BY_NAME.test(t), t);
  for (const t of ['env[k]', 'env.home', '{ ...env, LOCI_HOME: home }', 'readSettings(env).home'])
    assert.ok(!VARIABLE_BY_NAME.test(t), t);
});

/** The files of the composition root (`createPalace`), which must know no driver and no environment. */
const COMPOSITION_ROOT = [
  'palace/palace.ts',
  'palace/vectors.ts',
  'palace/graph.ts',
  'palace/diary.ts',
  'palace/names.ts',
  'palace/redacting.ts',
];

test('createPalace imports no storage adapter at run time and reads no environment', () => {
  const bad: string[] = [];
  for (const path of COMPOSITION_ROOT) {
    const f = files.find((x) => x.path === path);
    assert.ok(f, `${path} exists`);
    const code = withoutComments(f.text);
    for (const m of code.matchAll(/^import\s+(?!type\b)[^;]*?from\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[1]!;
      if (/store\/(index|sqlite|memory)/.test(spec) || spec === 'better-sqlite3') bad.push(`${path} -> ${spec}`);
    }
    if (/core\/env\.js|process\.env/.test(code)) bad.push(`${path} reads the environment`);
  }
  assert.deepEqual(bad, [], 'ports come in through createPalace(deps); the SQLite preset is palace/open.ts');
});

/** Folders a front end never imports, not even their doors: storage and the graph's storage go through `palace`. */
const FRONT_END_FORBIDDEN = new Set(['store', 'kg']);

/**
 * The only library files the documented exception (`hooks/light-core.ts`) may reach: leaf `core`
 * modules and the wake-up cache reader.
 */
const LIGHT_TARGETS = (target: string): boolean => target.startsWith('core/') || target === 'wakeup/wake-cache.ts';

test('front ends reach no storage or graph internals', () => {
  const bad: string[] = [];
  for (const f of files) {
    if (!FRONT_ENDS.has(f.folder)) continue;
    for (const t of f.imports) {
      const to = folderOf(t);
      if (FRONT_END_FORBIDDEN.has(to)) bad.push(`${f.path} -> ${t}`);
      else if (FRONT_END_DEEP_IMPORTS.has(f.path) && !FRONT_ENDS.has(to) && to !== ENTRY_FOLDER && !LIGHT_TARGETS(t))
        bad.push(`${f.path} -> ${t}`);
    }
  }
  assert.deepEqual(bad, [], 'front ends call the library (src/index.ts, a door); palace owns storage and the graph');
});

/**
 * Names of the library that rank, score or scope: a front end that imports one is doing a
 * capability's work (it should call the function of `search`, `recall` or `wakeup` that uses it).
 */
const RANKING_NAMES = new Set([
  'tokenize',
  'queryTokens',
  'searchColumn',
  'searchHybrid',
  'HYBRID_DEFAULTS',
  'parseTimeCues',
  'stripTimeCues',
  'timeProximity',
  'importance',
  'recencyFactor',
  'useFactor',
  'KIND_WEIGHTS',
  'RECENCY_DAYS',
  'recallWings',
  'wingForCwd',
  'defaultWing',
  'scoreRanking',
]);

/** Code (comments removed) that marks ranking or storage work: storage ports, score arithmetic, set similarity. */
const LOGIC_MARKERS: [string, RegExp][] = [
  ['storage port access (palace.store / internals)', /\.store\.|\binternals\b/],
  ['score arithmetic (log / exp / pow)', /Math\.(?:log|log2|log10|exp|pow)\b/],
  ['set similarity', /\bjaccard\b/i],
];

/** Known front-end files holding ranking or storage logic (debt; empty since issue 12). */
const KNOWN_FRONT_END_LOGIC = new Set<string>([]);

test('front ends hold no ranking or storage logic', () => {
  const bad: string[] = [];
  for (const f of files) {
    if (!FRONT_ENDS.has(f.folder) || KNOWN_FRONT_END_LOGIC.has(f.path)) continue;
    const code = withoutComments(f.text);
    for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g)) {
      if (!/^(?:\.\.\/)+(?:[a-z-]+\/)?index\.js$/.test(m[2]!)) continue;
      for (const part of m[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (RANKING_NAMES.has(name)) bad.push(`${f.path}: imports ${name}`);
      }
    }
    for (const [what, re] of LOGIC_MARKERS) if (re.test(code)) bad.push(`${f.path}: ${what}`);
  }
  assert.deepEqual(bad, [], 'move the logic into its capability (search, recall, wakeup, memdir…) and call it');
});

// ── web UI page (issue 16) ────────────────────────────────────────────────────
function listWeb(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listWeb(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

test('the web page imports only types from src/, and only the API shapes', () => {
  const bad: string[] = [];
  for (const abs of listWeb(join(root, 'web'))) {
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)(\s+type)?\s[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[3]!;
      const target = resolve(dirname(abs), spec);
      if (!target.startsWith(src)) continue;
      const rel = relative(root, abs);
      if (!m[2]) bad.push(`${rel}: value import of ${spec}`);
      else if (relative(src, target) !== 'ui/api-types.js') bad.push(`${rel}: ${spec} (only src/ui/api-types.ts)`);
    }
  }
  assert.deepEqual(bad, [], 'the page talks to the server over HTTP; it shares only the types of src/ui/api-types.ts');
});
