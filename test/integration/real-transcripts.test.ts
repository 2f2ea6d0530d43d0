/**
 * @module test/integration/real-transcripts
 * Mines the real development transcripts (`../shared/data/transcripts`, never copied into the
 * repository) and checks general properties of faithful ingestion: every file accounted for,
 * no exchange split by metadata, parts dated in order, wings that name projects, subagents in
 * their session's wing, and a second run that writes nothing. Skips when the folder is absent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MineConvosSummary } from '../../src/index.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { mineAt } from '../helpers/mine.js';

const DATA = join(ROOT, '..', 'shared', 'data', 'transcripts');
const skip = existsSync(DATA) ? false : `the real transcripts are not at ${DATA}`;

type Row = {
  source: string;
  wing: string;
  part: number;
  exchange: string;
  conv: string;
  speakers: string;
  kind: string | null;
  format: string;
  date: string | null;
  session: string | null;
};

describe('mining the real development transcripts', { skip }, () => {
  let work: { dir: string; cleanup: () => void };
  let first: MineConvosSummary;
  let rows: Row[];
  before(async () => {
    work = tempDir('loci-real-');
    first = await mineAt(work.dir, DATA);
    const d = new Database(join(work.dir, 'palace.db'), { readonly: true });
    rows = d
      .prepare(
        `SELECT source, wing, json_extract(metadata, '$.part') AS part,
                json_extract(metadata, '$.exchangeId') AS exchange,
                json_extract(metadata, '$.conversationId') AS conv, json_extract(metadata, '$.speakers') AS speakers,
                json_extract(metadata, '$.kind') AS kind, json_extract(metadata, '$.format') AS format,
                content_date AS date,
                json_extract(metadata, '$.sessionId') AS session
         FROM drawers ORDER BY source, chunk_index`,
      )
      .all() as Row[];
    d.close();
  });
  after(() => work?.cleanup());

  test('every file is accounted for, and every transcript gives drawers', () => {
    assert.equal(first.filesScanned, first.filesMined + first.filesUnchanged + first.filesSkipped);
    assert.equal(first.skipped.unrecognised, 1, 'only the README is not a conversation');
    assert.equal(first.filesSkipped, 1);
    assert.equal(
      new Set(rows.map((r) => r.source)).size,
      first.filesMined,
      'each mined unit has drawers (the open last exchange included)',
    );
  });

  test('no reply is split from its prompt: a later main-thread exchange holds a user turn or is metadata', () => {
    const bad = rows.filter(
      (r) =>
        r.format === 'claude-code' &&
        r.kind === null &&
        !r.conv.includes('~branch') &&
        !r.exchange.endsWith(':0') &&
        !r.speakers.includes('"user"'),
    );
    const lonely = bad.filter((r) => {
      const idx = Number(r.exchange.slice(r.conv.length + 1));
      // the first exchange with text may follow metadata exchanges only
      return rows.some(
        (x) => x.conv === r.conv && x.kind === null && Number(x.exchange.slice(x.conv.length + 1)) < idx,
      );
    });
    assert.deepEqual(
      lonely.map((r) => r.exchange),
      [],
    );
  });

  test('parts of an exchange are dated in order', () => {
    const byEx = new Map<string, Row[]>();
    for (const r of rows) byEx.set(r.exchange, [...(byEx.get(r.exchange) ?? []), r]);
    for (const [ex, parts] of byEx) {
      const dates = parts.map((p) => p.date).filter((d): d is string => d !== null);
      assert.deepEqual(dates, [...dates].sort(), ex);
    }
  });

  test('wings name projects, never the export, home or temp folder; subagents join their session', () => {
    const wings = new Set(rows.map((r) => r.wing));
    for (const w of ['transcripts', 'claude-code', 'home', 'tmp']) assert.ok(!wings.has(w), `wing ${w}`);
    for (const w of wings) assert.doesNotMatch(w, /^beam_/);
    const bySession = new Map<string, Set<string>>();
    for (const r of rows)
      if (r.format === 'claude-code' && r.session)
        bySession.set(r.session, (bySession.get(r.session) ?? new Set()).add(r.wing));
    for (const [s, w] of bySession) assert.equal(w.size, 1, `session ${s} spans wings ${[...w].join(', ')}`);
  });

  test('a second run reads nothing new and writes nothing', async () => {
    const again = await mineAt(work.dir, DATA);
    assert.deepEqual([again.drawersAdded, again.drawersUpdated, again.drawersRemoved, again.filesMined], [0, 0, 0, 0]);
  });
});
