/**
 * @module test/e2e/extract-cli
 * `loci extract` and `loci notes` as a user runs them (in-process through the CLI's entry function):
 * the dry run first (a diff, nothing written, JSON proposals), then the real run, then nothing new.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { fakeTranscript } from '../helpers/session.js';

let t: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let mem: string;
let transcript: string;
beforeEach(() => {
  t = tempDir('loci-extract-cli-');
  mem = join(t.dir, 'mem');
  mkdirSync(mem);
  env = {
    HOME: t.dir,
    LOCI_HOME: join(t.dir, 'home'),
    CLAUDE_CONFIG_DIR: join(t.dir, 'claude'),
    LOCI_LLM_PROVIDER: '',
  };
  const f = fakeTranscript(join(t.dir, 's1.jsonl'), 's1', t.dir);
  f.write([
    { user: 'Remember that the quarterly demo is next Thursday.', at: '2026-03-04T09:00:00Z' },
    { user: 'From now on, keep answers under ten lines.', at: '2026-03-04T09:01:00Z' },
  ]);
  transcript = f.path;
});
afterEach(() => t.cleanup());

describe('loci extract', () => {
  test('--dry-run --json proposes, writes nothing; the real run writes; a second run finds nothing new', async () => {
    const dry = await lociIn(['extract', '--transcript', transcript, '--dir', mem, '--dry-run', '--json'], { env });
    assert.equal(dry.code, 0, dry.stderr);
    const j = JSON.parse(dry.stdout) as {
      proposals: Record<string, string>[];
      mode: string;
      note: string;
      diff: string;
    };
    assert.equal(j.mode, 'explicit');
    assert.match(j.note, /explicit cases only/);
    assert.deepEqual(
      j.proposals.map((p) => Object.keys(p).sort()),
      [0, 1].map(() => ['action', 'description', 'file', 'name', 'reason', 'type']),
    );
    assert.deepEqual(
      j.proposals.map((p) => [p.action, p.type, p.file]),
      [
        ['add', 'project', 'project_the-quarterly-demo-is-on-thursday-2026-03-05.md'],
        ['add', 'feedback', 'feedback_keep-answers-under-ten-lines.md'],
      ],
    );
    assert.match(j.diff, /\+The quarterly demo is on Thursday 2026-03-05\./);
    assert.deepEqual(readdirSync(mem), []);

    const real = await lociIn(['extract', '--transcript', transcript, '--dir', mem], { env });
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, /explicit cases only/);
    assert.match(real.stdout, /\+ add {4}feedback {2}feedback_keep-answers-under-ten-lines\.md/);
    assert.match(real.stdout, /MEMORY\.md: 2 entries/);
    assert.ok(existsSync(join(mem, 'MEMORY.md')));

    const again = await lociIn(['extract', '--transcript', transcript, '--dir', mem], { env });
    assert.match(again.stdout, /nothing to remember \(nothing new\)/);
  });

  test('loci notes reports the threshold it waits for', async () => {
    const r = await lociIn(['notes', '--transcript', transcript, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { updated: boolean; reason: string; mode: string };
    assert.equal(j.updated, false);
    assert.match(j.reason, /first notes at 10000/);
    const forced = await lociIn(['notes', '--transcript', transcript, '--force'], { env });
    assert.match(forced.stdout, /notes updated — forced/);
    const shown = await lociIn(['notes', '--transcript', transcript, '--show'], { env });
    assert.match(shown.stdout, /# Session Title\nRemember that the quarterly demo/);
  });
});
