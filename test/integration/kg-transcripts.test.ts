/**
 * @module test/integration/kg-transcripts.test
 * Knowledge-graph precision and yield on the real development transcripts (read from
 * ../shared/data/transcripts/, never copied): the folder is mined as a user would (`mine --mode
 * convos`, extraction at ingest), every fact is keyed by (transcript file, subject, predicate,
 * object) and compared with the hand-labelled sample in `test/fixtures/kg/transcript-facts.json`
 * (labelled by reading the source at the stored locator; `@wing` stands for the drawer's wing).
 *
 * Conversation text is measured as the UTF-8 bytes of `proseText(drawer)` over the conversation
 * drawers — the human and assistant prose extraction reads, without tool calls, tool results,
 * fenced code, shell, diff, table or code lines. Run with `KG_TRANSCRIPTS_DUMP=/tmp/facts.jsonl` to
 * write every extracted fact with its locator, one JSON per line (for labelling new ones).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPalace } from '../../src/index.js';
import { entityKey, proseText } from '../../src/kg/index.js';
import { tempDir } from '../helpers/cli.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = join(ROOT, '..', 'shared', 'data', 'transcripts');
const LABELS = join(ROOT, 'test', 'fixtures', 'kg', 'transcript-facts.json');

interface Label {
  file: string;
  line: number | null;
  s: string;
  p: string;
  o: string;
  ok: boolean;
}

const keyOf = (file: string, s: string, p: string, o: string) =>
  `${file}\u0000${s === '@wing' ? s : entityKey(s)}\u0000${p}\u0000${entityKey(o) || o}`;

test(
  'knowledge graph on real transcripts: precise, with enough correct facts per MB of conversation',
  { skip: existsSync(DATA) ? false : `transcripts not found at ${DATA}` },
  async (t) => {
    const prevEmbedder = process.env['LOCI_EMBEDDER'];
    const prevUser = process.env['LOCI_USER_NAME'];
    process.env['LOCI_EMBEDDER'] = 'none';
    process.env['LOCI_USER_NAME'] = 'the-user';
    const home = tempDir('loci-kg-');
    const palace = await openPalace({ home: home.dir, embedder: null });
    try {
      await palace.mine(DATA, { mode: 'convos' });
      const { graph } = await palace.graph();
      const { drawers } = await palace.listDrawers({}, { limit: 1_000_000 });
      let proseBytes = 0;
      const extracted = new Map<string, string>();
      for (const d of drawers) {
        proseBytes += Buffer.byteLength(proseText(d));
        const file = basename(d.source ?? '');
        for (const f of await graph.factsForDrawer(d.id)) {
          const subject = f.subject === entityKey(d.wing) ? '@wing' : f.subjectName;
          const object = f.literal ? f.object : (f.objectName ?? f.object);
          const k = keyOf(file, subject, f.predicate, object);
          if (!extracted.has(k))
            extracted.set(
              k,
              JSON.stringify({
                file,
                line: d.lineStart ?? null,
                s: subject,
                p: f.predicate,
                o: object,
                window: [f.validFrom, f.validTo],
              }),
            );
        }
      }
      const dump = process.env['KG_TRANSCRIPTS_DUMP'];
      if (dump) writeFileSync(dump, [...extracted.values()].join('\n') + '\n');
      const labels = JSON.parse(readFileSync(LABELS, 'utf8')) as Label[];
      const byKey = new Map(labels.map((l) => [keyOf(l.file, l.s, l.p, l.o), l]));
      const still = [...extracted.keys()].filter((k) => byKey.has(k)).map((k) => byKey.get(k)!);
      const correct = still.filter((l) => l.ok).length;
      const unlabelled = [...extracted.entries()].filter(([k]) => !byKey.has(k)).map(([, v]) => v);
      const mb = proseBytes / 1e6;
      const report = {
        facts: extracted.size,
        labelled: still.length,
        correct,
        precision: still.length ? correct / still.length : 0,
        proseMB: Math.round(mb * 1000) / 1000,
        correctPerMB: Math.round(correct / mb),
      };
      t.diagnostic(JSON.stringify(report));
      // Every fact extraction gives must be judged: a new rule or a changed ingest needs new labels.
      assert.ok(
        unlabelled.length <= 0.2 * extracted.size,
        `unlabelled facts (label them in ${LABELS}):\n${unlabelled.join('\n')}`,
      );
      assert.ok(
        still.length >= 0.8 * labels.length,
        `most labelled facts are still extracted: ${JSON.stringify(report)}`,
      );
      assert.ok(report.precision >= 0.8, `precision: ${JSON.stringify(report)}`);
      assert.ok(report.correctPerMB >= 10, `yield: ${JSON.stringify(report)}`);
      assert.ok(mb > 0.05, `conversation text measured: ${JSON.stringify(report)}`);
      // Entities: a person is someone who speaks or is @mentioned (markdown labels such as
      // `**Rationale**:` are not people); no URL, fragment, hash or generic word is an entity.
      const names = new Set<string>([entityKey('the-user')]);
      for (const d of drawers) {
        const sp = d.metadata['speakers'];
        if (Array.isArray(sp)) for (const x of sp) if (typeof x === 'string') names.add(entityKey(x));
        for (const m of d.text.matchAll(/@([A-Za-z][\w.-]*[A-Za-z0-9])/g)) names.add(entityKey(m[1]!));
      }
      const entities = (await graph.entities({ limit: 100_000 })).items;
      const people = entities.filter((e) => e.type === 'person').map((e) => e.name);
      assert.deepEqual(
        people.filter((n) => !names.has(entityKey(n))),
        [],
        'persons that neither speak nor are mentioned',
      );
      const junk = entities
        .map((e) => e.name)
        .filter((n) => /^[a-z][a-z0-9+.-]*:\/\/|[-_]$|^[0-9a-f]{7,40}$|^(?:limit|offset|result|config|main)$/i.test(n));
      assert.deepEqual(junk, [], 'URLs, fragments, hashes or generic words as entities');
    } finally {
      await palace.close();
      home.cleanup();
      if (prevEmbedder === undefined) delete process.env['LOCI_EMBEDDER'];
      else process.env['LOCI_EMBEDDER'] = prevEmbedder;
      if (prevUser === undefined) delete process.env['LOCI_USER_NAME'];
      else process.env['LOCI_USER_NAME'] = prevUser;
    }
  },
);
