/**
 * @module test/e2e/hooks-startup
 * What a hook process loads, counted in modules (never in milliseconds): the archiving events load
 * the hook entry and a few `core` leaves and nothing from `node_modules`; a `user-prompt-submit`
 * answered in the hook process (no warm server) loads the doors recall needs — not the miners, the embedders, the
 * providers, the MCP server, the CLI or the knowledge graph (the tunnels recall follows are read without it), nor
 * the `yaml` package for simple memory files. Neither recall nor a computed wake-up initialises ICU (collation,
 * number formats: ~30–50 ms of CPU on the first call); the archiving events and a cached session-start do not load
 * `node:crypto` (~5 ms). Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HOOK_MAIN, hookInput, hookWorld, NEEDS_BUILD, type HookWorld } from '../fixtures/hooks/support.js';
import { modulesLoaded } from '../helpers/modules.js';
import { ROOT } from '../helpers/cli.js';

const skip = NEEDS_BUILD;

/** Prints `CRYPTO` on stderr at exit when the process loaded `node:crypto`. */
const CRYPTO_PROBE = `process.on('exit', () => {
  if (process.moduleLoadList.includes('NativeModule crypto')) process.stderr.write('CRYPTO\\n');
});
`;

/** Prints `ICU <entry>` on stderr when the process first calls an entry point that initialises ICU. */
const ICU_PROBE = `const seen = new Set();
const note = (k) => { if (!seen.has(k)) { seen.add(k); process.stderr.write('ICU ' + k + '\\n'); } };
for (const [o, m] of [[String.prototype, 'localeCompare'], [String.prototype, 'toLocaleLowerCase'],
  [String.prototype, 'toLocaleUpperCase'], [Number.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'],
  [Date.prototype, 'toLocaleTimeString'], [Array.prototype, 'toLocaleString']]) {
  const f = o[m];
  o[m] = function (...a) { note(m); return f.apply(this, a); };
}
for (const k of ['Collator', 'NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat']) {
  const C = Intl[k];
  Intl[k] = new Proxy(C, {
    construct: (t, a) => (note('Intl.' + k), new t(...a)),
    apply: (t, _, a) => (note('Intl.' + k), t(...a)),
  });
}
`;

/** Runs `fn` with the `--import` arguments of a probe module holding `source`. */
function withProbe(source: string, fn: (pre: string[]) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'loci-probe-'));
  try {
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, source);
    fn(['--import', pathToFileURL(probe).href]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function loaded(w: HookWorld, event: string, fixture: string, patch: Record<string, unknown> = {}, pre: string[] = []) {
  const r = modulesLoaded([...pre, HOOK_MAIN, event], {
    cwd: w.project,
    env: w.env,
    input: hookInput(fixture, w, { session_id: `startup-${event}`, ...patch }),
  });
  assert.equal(r.status, 0, r.stderr);
  const dist = r.files.filter((f) => f.includes('/dist/')).map((f) => relative(`${ROOT}/dist`, f));
  const deps = r.files.filter((f) => f.includes('/node_modules/'));
  return { dist, deps, stdout: r.stdout, stderr: r.stderr };
}

describe('hook start-up', { skip }, () => {
  let w: HookWorld;
  before(async () => {
    w = hookWorld({ LOCI_HOOK_SERVER: '0', LOCI_HOOK_WORKER: '0' });
    const { buildHookPalace } = await import('../fixtures/hooks/palace.js');
    await buildHookPalace(w, 60);
  });
  after(() => w?.cleanup());

  for (const [event, fixture] of [
    ['stop', 'stop.json'],
    ['pre-compact', 'pre-compact.json'],
    ['post-compact', 'post-compact.json'],
    ['session-end', 'session-end.json'],
  ] as const) {
    it(`${event} loads the hook entry and core leaves only`, () => {
      const { dist, deps } = loaded(w, event, fixture);
      assert.ok(dist.includes('hooks/main.js'), 'the probe sees the hook (not vacuous)');
      const outside = dist.filter((f) => !/^(hooks|core)\//.test(f));
      assert.deepEqual(outside, []);
      assert.ok(!dist.includes('hooks/client.js'), 'no warm-server client for an archiving event');
      assert.deepEqual(deps, []);
    });
  }

  it('user-prompt-submit in the hook process loads what recall needs, not the whole library', () => {
    const { dist, deps, stdout } = loaded(w, 'user-prompt-submit', 'user-prompt-submit.json', {
      prompt: 'how did we handle the rate limit login redis window decision?',
    });
    assert.match(stdout, /UserPromptSubmit/, 'it answered (memories were read)');
    const folders = new Set(dist.map((f) => f.split('/')[0]));
    for (const absent of ['ingest', 'embed', 'providers', 'mcp', 'cli', 'bench', 'kg', 'index.js', 'lazy.js'])
      assert.ok(!folders.has(absent), `${absent} loaded: ${dist.filter((f) => f.startsWith(absent)).join(', ')}`);
    assert.deepEqual(
      deps.filter((f) => f.includes('/node_modules/yaml/')),
      [],
      'simple memory files are read without the yaml package',
    );
  });

  it('recall and a computed wake-up never initialise ICU (no localeCompare, toLocaleString or Intl)', () =>
    withProbe(ICU_PROBE, (pre) => {
      const prompt = { prompt: 'how did we handle the rate limit login redis window decision?' };
      const recall = loaded(w, 'user-prompt-submit', 'user-prompt-submit.json', prompt, pre);
      assert.match(recall.stdout, /UserPromptSubmit/, 'it answered');
      assert.doesNotMatch(recall.stderr, /ICU/);
      // No cache entry: the wake-up is computed in the hook process.
      rmSync(join(w.home, 'cache', 'wake-up'), { recursive: true, force: true });
      const computed = loaded(w, 'session-start', 'session-start.json', {}, pre);
      assert.match(computed.stdout, /SessionStart/, 'it answered');
      assert.doesNotMatch(computed.stderr, /ICU/);
    }));

  it('the archiving events and a cached session-start never load node:crypto', () =>
    withProbe(CRYPTO_PROBE, (pre) => {
      rmSync(join(w.home, 'cache', 'wake-up'), { recursive: true, force: true });
      const computed = loaded(w, 'session-start', 'session-start.json', {}, pre); // then cached
      assert.match(computed.stdout, /SessionStart/);
      assert.match(computed.stderr, /CRYPTO/, 'the probe sees a process that loads it (not vacuous)');
      for (const [event, fixture] of [
        ['session-start', 'session-start.json'],
        ['stop', 'stop.json'],
        ['pre-compact', 'pre-compact.json'],
        ['post-compact', 'post-compact.json'],
        ['session-end', 'session-end.json'],
      ] as const)
        assert.doesNotMatch(loaded(w, event, fixture, {}, pre).stderr, /CRYPTO/, event);
    }));
});
