/**
 * @module test/e2e/dream-cli.test
 * `loci dream` through the CLI entry (in process): the gate message, `--dry-run`, `--json` with
 * the documented shape, the "no model" note, and `--undo`.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, it } from 'node:test';
import { filesOf, playground, type Playground } from '../fixtures/dream/support.js';
import { lociIn } from '../helpers/cli-in-process.js';

let p: Playground;
beforeEach(() => {
  p = playground();
});
afterEach(() => p.cleanup());

const run = (...args: string[]) =>
  lociIn(['dream', '--dir', p.dir, ...args], {
    home: p.home,
    cwd: p.projectRoot,
    env: { HOME: p.root, CLAUDE_CONFIG_DIR: `${p.root}/claude`, LOCI_LLM_PROVIDER: undefined },
  });

it('says why it did not run, shows a dry run, runs with --force --json, and undoes', async () => {
  const gated = await run();
  assert.equal(gated.code, 0, gated.stderr);
  assert.match(gated.stdout, /^loci dream: not run: 0 new sessions so far .*it needs 5 \(--force to run now\)/);

  const before = filesOf(p.dir);
  const dry = await run('--dry-run', '--force');
  assert.match(dry.stdout, /dry run: nothing written/);
  assert.match(dry.stdout, /merge +feedback_testing\.md ← feedback_testing_copy\.md: same text/);
  assert.match(dry.stdout, /skipped: no model configured \(set LOCI_LLM_PROVIDER/);
  assert.deepEqual(filesOf(p.dir), before);

  const r = await run('--force', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as {
    ran: boolean;
    reason: string;
    changes: { action: string; file: string }[];
    report: string;
  };
  assert.equal(j.ran, true);
  assert.match(j.reason, /forced/);
  assert.ok(j.changes.some((c) => c.action === 'rewrite-dates' && c.file === 'project_release.md'));
  assert.match(j.report, /report\.md$/);

  const u = await run('--undo');
  assert.equal(u.code, 0, u.stderr);
  assert.match(u.stdout, /restored feedback_testing_copy\.md/);
  assert.deepEqual(filesOf(p.dir), before);
  const again = await run('--undo');
  assert.equal(again.code, 2);
  assert.match(again.stderr, /nothing to undo .*\[DREAM_NOTHING_TO_UNDO\]/);
});
