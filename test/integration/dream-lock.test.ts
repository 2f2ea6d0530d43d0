/**
 * @module test/integration/dream-lock.test
 * The consolidation lock between real processes: a live holder keeps others out (`ran: false`,
 * naming its pid), a dead holder's lock is taken over, and of two consolidations started at once
 * on one folder only one runs.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startLoopback } from '../helpers/loopback.js';
import { playground, type Playground } from '../fixtures/dream/support.js';
import { fixedClock } from '../../src/core/clock.js';
import { runDream, type DreamResult } from '../../src/dream/index.js';
import { readDreamLock } from '../../src/dream/state.js';

const CHILD = fileURLToPath(new URL('../fixtures/dream/child.ts', import.meta.url));

let p: Playground;
const children: ChildProcess[] = [];
beforeEach(() => {
  p = playground();
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  p.cleanup();
});

function child(args: Record<string, unknown>): {
  proc: ChildProcess;
  out: Promise<string>;
  firstLine: Promise<string>;
} {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  let text = '';
  let resolveLine: (s: string) => void;
  const firstLine = new Promise<string>((r) => (resolveLine = r));
  proc.stdout!.on('data', (c: Buffer) => {
    text += c.toString('utf8');
    if (text.includes('\n')) resolveLine(text.split('\n')[0]!);
  });
  const out = new Promise<string>((resolve) => proc.on('close', () => resolve(text)));
  return { proc, out, firstLine };
}

const T0 = Date.parse('2026-03-10T12:00:00Z');

describe('the consolidation lock across processes', () => {
  it('a live holder keeps a run out; once it is killed its stale lock is taken over', async () => {
    const holder = child({ mode: 'hold', dir: p.dir, home: p.home });
    assert.equal(await holder.firstLine, 'held');
    const blocked = await runDream({ dir: p.dir, home: p.home, force: true, clock: fixedClock(T0) });
    assert.equal(blocked.ran, false);
    assert.match(blocked.reason, new RegExp(`another process \\(pid ${holder.proc.pid}\\) is consolidating`));
    holder.proc.kill('SIGKILL');
    await holder.out;
    assert.equal(readDreamLock(p.home, p.dir)?.pid, holder.proc.pid, 'the dead holder left its lock behind');
    const logs: string[] = [];
    const ran = await runDream({
      dir: p.dir,
      home: p.home,
      force: true,
      clock: fixedClock(T0),
      logger: { log: (_l, msg) => logs.push(msg) },
    });
    assert.equal(ran.ran, true, ran.reason);
    assert.ok(logs.some((m) => /took over the lock of a dead process/.test(m)));
    assert.equal(readDreamLock(p.home, p.dir), undefined, 'released after the run');
  });

  it('of two processes consolidating one folder at once, one runs and the other is refused', async () => {
    // A's model never answers, so A holds the lock until this test closes the connection.
    const slow = await startLoopback();
    slow.reply('anthropic.messages', { fail: 'hang' });
    const a = child({ mode: 'run', dir: p.dir, home: p.home, baseUrl: slow.url, timeoutMs: 600_000 });
    await slow.waitForRequests(1); // A holds the lock while it waits for the model
    const b = child({ mode: 'run', dir: p.dir, home: p.home });
    const rb = JSON.parse(await b.out) as DreamResult;
    assert.equal(rb.ran, false);
    assert.match(rb.reason, new RegExp(`pid ${a.proc.pid}\\b`));
    await slow.close();
    const ra = JSON.parse(await a.out) as DreamResult;
    assert.equal(ra.ran, true);
    assert.equal(ra.model, 'failed');
  });
});
