/**
 * @module test/e2e/hooks-wake-up.test
 * `loci wake-up` through the built bin: the same text the session-start hook injects, `--json`
 * with sections and importance factors, `--wing`, `--max-tokens`. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openPalace } from '../../src/index.js';
import {
  hookInput,
  hookWorld,
  lociInWorld,
  NEEDS_BUILD,
  runHookProcess,
  type HookWorld,
} from '../fixtures/hooks/support.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld({ LOCI_HOOK_WORKER: '0' });
});
afterEach(() => w.cleanup());

describe('loci wake-up', { skip: NEEDS_BUILD }, () => {
  test('prints the text the session-start hook injects; --json explains the ranking', async () => {
    assert.equal(
      (
        await lociInWorld(w, [
          'memory',
          'add',
          '-t',
          'feedback',
          '-n',
          'no mocks',
          '-d',
          'integration tests hit a real database, never mocks',
          '-b',
          'x',
          '--pinned',
        ])
      ).code,
      0,
    );
    const p = await openPalace({ home: w.home, embedder: null });
    await p.addDrawer({
      wing: 'acme-api',
      room: 'limits',
      hall: 'facts',
      text: 'We decided to use Redis for the login limiter.',
      contentDate: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    await p.addDrawer({ wing: 'other', room: 'x', hall: 'facts', text: 'We decided something in another project.' });
    await p.close();
    const text = await lociInWorld(w, ['wake-up']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^# Loci wake-up: acme-api \(\d{4}-\d\d-\d\d\)\n/);
    assert.match(
      text.stdout,
      new RegExp(
        String.raw`## Pinned\n- \[feedback\] no-mocks — integration tests hit a real database, never mocks ` +
          String.raw`\(today · feedback_no-mocks\.md\)`,
      ),
    );
    assert.match(text.stdout, /We decided to use Redis for the login limiter\. \(3 days ago · drawer d[0-9a-f]+\)/);
    assert.doesNotMatch(text.stdout, /another project/);
    const hook = runHookProcess('session-start', hookInput('session-start.json', w), w);
    assert.equal(
      (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
        .additionalContext,
      text.stdout.trimEnd(),
    );
    const j = JSON.parse((await lociInWorld(w, ['wake-up', '--json'])).stdout) as {
      tokens: number;
      wing: string;
      sections: {
        pinned: unknown[];
        recent: {
          kind: string;
          ageDays: number;
          importance: { recency: number; use: number; kind: number; score: number };
        }[];
      };
    };
    assert.equal(j.wing, 'acme-api');
    assert.equal(j.sections.pinned.length, 1);
    const d = j.sections.recent[0]!;
    assert.deepEqual([d.kind, d.ageDays, d.importance.kind, d.importance.use], ['drawer', 3, 1.2, 1]);
    assert.ok(Math.abs(d.importance.recency - 1 / (1 + 3 / 7)) < 0.01);
    assert.ok(j.tokens <= 800);
    const other = await lociInWorld(w, ['wake-up', '--wing', 'other', '--max-tokens', '150']);
    assert.match(other.stdout, /another project/);
    assert.ok(other.stdout.trimEnd().length <= 600);
  });

  test('an empty palace: nothing on stdout, a note on stderr, exit 0', async () => {
    const r = await lociInWorld(w, ['wake-up']);
    assert.deepEqual([r.code, r.stdout], [0, '']);
    assert.match(r.stderr, /nothing to wake up with/);
  });
});
