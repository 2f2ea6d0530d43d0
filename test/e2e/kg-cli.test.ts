/**
 * @module test/e2e/kg-cli
 * The knowledge graph through the CLI (in-process, `lociIn`): add (dedupe, dates only on request), contradiction
 * closing the old window, as-of queries, timeline paging, invalidate, stats and entities, facts
 * extracted automatically at ingest with the drawers behind them, and traverse.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

describe('loci kg', () => {
  let t: { dir: string; cleanup: () => void };
  let home: string;
  before(() => {
    t = tempDir();
    home = join(t.dir, 'home');
  });
  after(() => t.cleanup());
  const kg = async (...args: string[]) => {
    const r = await lociIn(['kg', ...args], { home });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : r.stdout;
  };

  test('add dedupes an identical open fact and changes dates only when asked', async () => {
    const a = await kg('add', 'Maya', 'assigned_to', 'auth-migration', '--from', '2026-01-15', '--json');
    const b = await kg('add', 'maya', 'assigned_to', 'Auth-Migration', '--from', '2026-02-01', '--json');
    assert.equal(a.fact.id, b.fact.id);
    assert.match(b.fact.valid_from, /^2026-01-15/);
    const c = await kg(
      'add',
      'Maya',
      'assigned_to',
      'auth-migration',
      '--from',
      '2026-01-10',
      '--replace-dates',
      '--json',
    );
    assert.match(c.fact.valid_from, /^2026-01-10/);
  });

  test('a contradicting fact closes the old window; as-of answers follow history', async () => {
    await kg('add', 'Maya', 'assigned_to', 'billing', '--from', '2026-03-01');
    const feb = await kg('query', 'Maya', '--as-of', '2026-02-15', '--json');
    assert.deepEqual(
      feb.facts.map((f: { object: string }) => f.object),
      ['auth-migration'],
    );
    const now = await kg('query', 'Maya', '--json');
    assert.deepEqual(
      now.facts.map((f: { object: string }) => f.object),
      ['billing'],
    );
    assert.match(now.facts[0].valid_from, /^2026-03-01/);
    for (const k of ['subject', 'predicate', 'object', 'valid_from', 'valid_to', 'sources'])
      assert.ok(k in now.facts[0], k);
    const before = await kg('query', 'Maya', '--as-of', '2025-12-31', '--json');
    assert.deepEqual(before.facts, []);
  });

  test('invalidate closes without deleting; timeline pages through everything', async () => {
    const closed = await kg('invalidate', 'Maya', 'assigned_to', 'billing', '--ended', '2026-06-01', '--json');
    assert.equal(closed.closed.length, 1);
    assert.deepEqual((await kg('query', 'Maya', '--json')).facts, []);
    for (let i = 0; i < 7; i++) await kg('add', 'Maya', 'uses', `tool-${i}`, '--from', `2026-0${1 + (i % 9)}-02`);
    const p1 = await kg('timeline', 'Maya', '-n', '4', '--json');
    assert.equal(p1.facts.length, 4);
    const p2 = await kg('timeline', 'Maya', '-n', '4', '--cursor', p1.next_cursor, '--json');
    const p3 = p2.next_cursor
      ? await kg('timeline', 'Maya', '-n', '4', '--cursor', p2.next_cursor, '--json')
      : { facts: [] };
    assert.equal(p1.facts.length + p2.facts.length + p3.facts.length, 9);
    const s = await kg('stats', '--json');
    assert.ok(s.entities >= 10 && s.facts === 9);
  });

  test('facts are extracted at ingest and link back to their drawers', async () => {
    const notes = join(t.dir, 'notes');
    writeTree(notes, {
      'team/2026-04-02-standup.md':
        '# Standup\n\nPriya joined Acme Corp last week.\n\nOur team switched to PostgreSQL from MySQL.\n',
    });
    const m = await lociIn(['mine', notes, '--wing', 'team', '--json'], { home });
    assert.equal(m.code, 0, m.stderr);
    const q = await kg('query', 'Priya', '--json');
    const fact = q.facts.find((f: { object: string }) => /acme/i.test(f.object));
    assert.ok(fact, JSON.stringify(q));
    assert.ok(fact.sources.length >= 1);
    const g = await lociIn(['get', fact.sources[0], '--json'], { home });
    assert.match(JSON.parse(g.stdout).drawer.text, /Priya joined Acme Corp/);
    const human = (await lociIn(['kg', 'query', 'Priya'], { home })).stdout;
    assert.match(human, /↳ d[0-9a-f]{16}/);
    const missing = await lociIn(['kg', 'query', 'Nobody Here'], { home });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /KG_ENTITY_NOT_FOUND/);
  });

  test('traverse walks rooms of the same name across wings', async () => {
    const a = join(t.dir, 'wa');
    const b = join(t.dir, 'wb');
    writeTree(a, { 'auth/login.md': '# Login\n\nThe login flow uses OAuth2.\n' });
    writeTree(b, { 'auth/tokens.md': '# Tokens\n\nTokens expire after one hour.\n' });
    assert.equal((await lociIn(['mine', a, '--wing', 'alpha'], { home })).code, 0);
    assert.equal((await lociIn(['mine', b, '--wing', 'beta'], { home })).code, 0);
    const r = JSON.parse((await lociIn(['traverse', 'alpha/auth', '--json'], { home })).stdout);
    const names = r.rooms.map((s: { wing: string; room: string }) => `${s.wing}/${s.room}`);
    assert.ok(names.includes('alpha/auth') && names.includes('beta/auth'), names.join(','));
    const bad = await lociIn(['traverse', 'nowing'], { home });
    assert.equal(bad.code, 2);
  });
});
