// The test files of `npm test` and the order and grouping they run in (used by run-tests.mjs and
// test-times.mjs).
//
// Every test file costs a Node process with the tsx loader (~0.4 CPU-seconds before its first test)
// and loads its own copy of the library. The unit tests under src/ are small, so they run grouped:
// the files of one capability folder (src/<folder>) in one process, through a generated entry that
// imports them in order. A file stays in its own process when sharing one would change what it
// tests: hooks at the top level (`beforeEach`/`afterEach` outside a `describe` would run around the
// other files' tests too), top-level await, or a test that replaces process.stdout/stderr.
// `LOCI_TEST_ISOLATE=1` runs every file in its own process.
//
// Order: the long files first (torture, integration, e2e, bench, then the other files under test/),
// the src groups last, so that two files run side by side until the end instead of one long file
// running alone at the end.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every `*.test.ts` under `dir` (relative to `root`), skipping node_modules, fixtures and dot folders. */
export function collect(root, dir, out = []) {
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) collect(root, p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** The test files named by `targets` (files or folders; default src and test), sorted. */
export function testFiles(root, targets) {
  const list = targets.length ? targets : ['src', 'test'];
  return list.flatMap((t) => (statSync(join(root, t)).isDirectory() ? collect(root, t) : [t])).sort();
}

/** Where a file runs first: lower first. */
const RANK = [/^test\/torture\//, /^test\/integration\//, /^test\/e2e\//, /^test\/bench\//, /^test\//, /^src\//];
const rank = (f) => {
  const i = RANK.findIndex((re) => re.test(f));
  return i < 0 ? RANK.length : i;
};

/** Why a src test file must keep its own process, or undefined when it can share one. */
export function isolationReason(root, file) {
  const text = readFileSync(join(root, file), 'utf8');
  if (/^(beforeEach|afterEach)\(/m.test(text)) return 'top-level beforeEach/afterEach';
  if (/^(await |(const|let) [^=\n]+= await )/m.test(text)) return 'top-level await';
  if (/process\.(stdout|stderr)\.write\s*=/.test(text)) return 'replaces process.stdout/stderr';
  return undefined;
}

/**
 * The units to hand to `node --test`, in run order: a file, or a group of src files of one
 * capability folder written as a generated entry under `groupDir`.
 */
export function plan(root, files, groupDir, { isolate = false } = {}) {
  const groups = new Map();
  const single = [];
  for (const f of files) {
    const m = /^src\/([^/]+)\//.exec(f);
    if (isolate || !m || isolationReason(root, f)) single.push(f);
    else groups.set(m[1], [...(groups.get(m[1]) ?? []), f]);
  }
  const units = single.map((f) => ({ path: f, name: f, files: [f] }));
  if (groups.size) mkdirSync(groupDir, { recursive: true });
  for (const [folder, members] of groups) {
    if (members.length === 1) {
      units.push({ path: members[0], name: members[0], files: members });
      continue;
    }
    const path = join(groupDir, `src-${folder}.test.mjs`);
    const lines = members.map((f) => `import ${JSON.stringify(pathToFileURL(join(root, f)).href)};`);
    writeFileSync(
      path,
      `// The unit tests of src/${folder}, in one process (scripts/test-files.mjs).\n${lines.join('\n')}\n`,
    );
    units.push({ path, name: `src/${folder} (${members.length} files)`, files: members });
  }
  const key = (u) => rank(u.files[0]);
  return units.sort((a, b) => key(a) - key(b) || (a.files[0] < b.files[0] ? -1 : 1));
}
