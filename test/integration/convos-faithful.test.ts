/**
 * @module test/integration/convos-faithful
 * Faithful ingestion on real SQLite palaces (issue 10 and issue 11 defect 8), with small fixtures
 * written here: subagent and compaction files join their session's wing, ignore files above the
 * mined path are not consulted, formats are recognised by content, every skipped file is counted
 * by reason, and a huge first line neither hides a transcript nor holds the whole line in memory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/cli.js';
import { mineAt } from '../helpers/mine.js';

type Row = { source: string; wing: string; text: string };

function rows(home: string): Row[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return d.prepare('SELECT source, wing, text FROM drawers ORDER BY source, chunk_index').all() as Row[];
  } finally {
    d.close();
  }
}

const mine = mineAt;

const SID = '3c9e0f6a-1111-4222-8333-944455556666';
const rec = (o: Record<string, unknown>) => JSON.stringify({ sessionId: SID, version: '2.1.100', ...o });
const turn = (u: string, p: string | null, cwd: string, q: string, a: string, side = false, agentId?: string) => [
  rec({ type: 'user', uuid: `${u}u`, parentUuid: p, cwd, isSidechain: side, ...(agentId ? { agentId } : {}), timestamp: '2026-02-01T10:00:00.000Z', message: { role: 'user', content: q } }),
  rec({ type: 'assistant', uuid: `${u}a`, parentUuid: `${u}u`, cwd, isSidechain: side, ...(agentId ? { agentId } : {}), timestamp: '2026-02-01T10:00:05.000Z', message: { id: `m${u}`, role: 'assistant', content: [{ type: 'text', text: a }] } }),
];

describe('faithful conversation ingestion', () => {
  let work: { dir: string; cleanup: () => void };
  let n = 0;
  const home = () => join(work.dir, `home-${++n}`);
  before(() => {
    work = tempDir('loci-faithful-');
  });
  after(() => work.cleanup());

  test('subagent and compaction files join their parent session wing; --wing still wins', async () => {
    const dir = join(work.dir, 'sessions');
    mkdirSync(join(dir, SID, 'subagents'), { recursive: true });
    writeFileSync(join(dir, `${SID}.jsonl`), `${turn('1', null, '/gone/orchard-app', 'Plan the orchard import.', 'Planned.').join('\n')}\n`);
    writeFileSync(join(dir, SID, 'subagents', 'agent-acompact-9f1e2d.jsonl'), `${turn('2', null, '/gone/orchard-app/assets', 'Summarise the session.', 'Summary written.', true, 'acompact-9f1e2d').join('\n')}\n`);
    writeFileSync(join(dir, SID, 'subagents', 'agent-b77.jsonl'), `${turn('3', null, '/gone/orchard-app/lib', 'Search the code.', 'Found it.', true, 'b77').join('\n')}\n`);
    const h = home();
    await mine(h, dir);
    const wings = new Set(rows(h).map((r) => r.wing));
    assert.deepEqual([...wings], ['orchard-app']);
    const forced = home();
    await mine(forced, dir, { wing: 'mine' });
    assert.deepEqual([...new Set(rows(forced).map((r) => r.wing))], ['mine']);
  });
});
