/**
 * @module kg/locomo.test
 * Mines the LoCoMo dev conversations (read from ../shared/, never copied) into a real SQLite graph
 * through the rule extractor: people must be linked to every session they speak in, the things they
 * did must carry dates resolved against the session date, and as-of answers must follow them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../store/index.js';
import { createSqliteGraphStore, extractFromDrawer } from './index.js';
import { LOCOMO_DEV } from '../../test/helpers/locomo.js';

const DATA = LOCOMO_DEV;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "1:56 pm on 8 May, 2023" → ISO-8601 UTC. */
function sessionDate(s: string): string {
  const m = /(\d+):(\d+) (am|pm) on (\d+) (\w+),? (\d{4})/.exec(s);
  if (!m) throw new Error(`unexpected LoCoMo date ${s}`);
  const hour = (+m[1]! % 12) + (m[3] === 'pm' ? 12 : 0);
  return new Date(Date.UTC(+m[6]!, MONTHS.indexOf(m[5]!), +m[4]!, hour, +m[2]!)).toISOString();
}

interface Turn {
  speaker: string;
  text: string;
}

test(
  'LoCoMo dev: people linked to their sessions, dated deeds, correct as-of answers',
  { skip: existsSync(DATA) ? false : `LoCoMo data not found at ${DATA}` },
  async () => {
    const convs = JSON.parse(readFileSync(DATA, 'utf8')) as {
      sample_id: string;
      conversation: Record<string, unknown>;
    }[];
    const dir = mkdtempSync(join(tmpdir(), 'loci-'));
    const db = openDatabase(join(dir, 'palace.db'));
    try {
      const g = createSqliteGraphStore(db);
      await g.init();
      const sessionOf = new Map<string, string>();
      for (const conv of convs) {
        const c = conv.conversation;
        const speakers = [String(c['speaker_a']), String(c['speaker_b'])];
        for (let i = 1; Array.isArray(c[`session_${i}`]); i++) {
          const turns = c[`session_${i}`] as Turn[];
          const contentDate = sessionDate(String(c[`session_${i}_date_time`]));
          for (let j = 0; j < turns.length; j += 8) {
            const id = `${conv.sample_id}/s${i}/${j}`;
            sessionOf.set(id, `${conv.sample_id}/s${i}`);
            const text = turns
              .slice(j, j + 8)
              .map((t) => `${t.speaker}: ${t.text}`)
              .join('\n');
            const r = extractFromDrawer({
              id,
              text,
              contentDate,
              speakers,
              wing: conv.sample_id,
              room: `session-${i}`,
            });
            const res = await g.apply(r, { lenient: true });
            assert.deepEqual(res.skipped, [], id);
          }
        }
      }
      for (const conv of convs) {
        const c = conv.conversation;
        const sessions = new Set<string>();
        for (let i = 1; Array.isArray(c[`session_${i}`]); i++) sessions.add(`${conv.sample_id}/s${i}`);
        for (const who of [String(c['speaker_a']), String(c['speaker_b'])]) {
          const person = await g.resolveEntity(who);
          assert.equal(person?.type, 'person', who);
          const linked = new Set(
            (await g.drawersForEntities([person!.id], { limit: 100_000 }))
              .map((l) => sessionOf.get(l.drawerId))
              .filter((s) => s?.startsWith(conv.sample_id + '/')),
          );
          assert.deepEqual(
            [...linked].sort(),
            [...sessions].sort(),
            `${who} is linked to every session of ${conv.sample_id}`,
          );
        }
      }
      // "I went to a LGBTQ support group yesterday" said on 8 May 2023 → from 7 May 2023.
      const deed = (await g.timeline('Caroline', { limit: 1000 })).items.find(
        (f) => f.predicate === 'attended' && f.objectName === 'LGBTQ support group',
      );
      assert.equal(deed?.validFrom, '2023-05-07T00:00:00.000Z');
      assert.ok(deed.sources.every((d) => sessionOf.get(d) === 'conv-26/s1'));
      assert.equal((await g.query('Caroline', { asOf: '2023-05-06', predicate: 'attended' })).length, 0);
      assert.ok(
        (await g.query('Caroline', { asOf: '2023-05-07', predicate: 'attended' })).some((f) => f.id === deed.id),
      );
      const stats = await g.stats();
      assert.ok(stats.facts >= 25 && stats.entities >= 12, JSON.stringify(stats));
      for (const { items } of [await g.timeline('Melanie', { limit: 1000 })]) {
        for (const f of items)
          if (f.validFrom && f.subject === 'melanie')
            assert.ok(
              (await g.query('Melanie', { asOf: f.validFrom })).some((q) => q.id === f.id || f.validTo === f.validFrom),
              f.id,
            );
      }
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
