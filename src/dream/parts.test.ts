/**
 * @module dream/parts.test
 * The pieces of consolidation on their own: the strict answer reader, drift references, the
 * duplicate rules (team memories included), the write guard and the session reader.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { projectWing } from '../core/project-identity.js';
import type { Memory } from '../memdir/index.js';
import { createPalace } from '../palace/index.js';
import { createMemoryGraphTables, createMemoryStore, createMemoryTunnelStore } from '../store/index.js';
import { palaceArchive } from './archive.js';
import { namedReferences } from './drift.js';
import { findDuplicates, mergeBodies } from './duplicates.js';
import { parseDreamAnswer } from './model.js';
import { readSessionLines } from './sessions.js';
import { guardedPath } from './snapshot.js';

describe('parseDreamAnswer', () => {
  it('reads every action, a fence around the JSON allowed', () => {
    const a = parseDreamAnswer(
      '```json\n{"actions": [{"action": "merge", "into": "a.md", "from": ["b.md"], "reason": "same"},' +
        '{"action": "claude-md-conflict", "file": "c.md", "claudeMd": "CLAUDE.md", "postDatesAndCorrects": true, ' +
        '"reason": "r"}]}\n```',
    );
    assert.deepEqual(
      a.map((x) => x.action),
      ['merge', 'claude-md-conflict'],
    );
    assert.deepEqual(parseDreamAnswer('{"actions": []}'), []);
  });

  it('rejects prose, other shapes, unknown actions and wrong field types', () => {
    for (const [text, why] of [
      ['I think a.md should go.', /not JSON/],
      ['["a.md"]', /"actions" list/],
      ['{"actions": [{"action": "rename", "file": "a.md", "reason": "r"}]}', /unknown action "rename"/],
      ['{"actions": [{"action": "delete", "file": 3, "reason": "r"}]}', /"file" is not a string/],
      ['{"actions": [{"action": "merge", "into": "a.md", "from": [], "reason": "r"}]}', /"from" is not/],
      [
        '{"actions": [{"action": "claude-md-conflict", "file": "a", "claudeMd": "C", "reason": "r"}]}',
        /postDatesAndCorrects/,
      ],
    ] as const) {
      assert.throws(() => parseDreamAnswer(text), why);
    }
  });
});

describe('namedReferences', () => {
  it('finds repository paths and called functions, not URLs or absolute paths', () => {
    const r = namedReferences(
      'See src/core/env.ts and `readSettings()`; docs at https://example.test/a/b.html; not /etc/hosts.conf; ' +
        '`obj.method()` too',
    );
    assert.deepEqual(r.files, ['src/core/env.ts']);
    assert.deepEqual(r.functions, ['readSettings', 'method']);
  });
});

function mem(file: string, body: string, extra: Partial<Memory> = {}): Memory {
  return {
    name: file,
    title: file,
    type: 'project',
    description: '',
    file,
    path: file,
    modified: '2026-01-01T00:00:00.000Z',
    privacy: 'private',
    pinned: false,
    bytes: body.length,
    team: file.startsWith('team/'),
    hasFrontmatter: true,
    links: [],
    body,
    text: body,
    ...extra,
  };
}

const LONG = 'the nightly export job writes parquet files to the analytics bucket every night at two';

describe('findDuplicates', () => {
  const isTeam = (m: Memory) => m.team;

  it('near duplicates keep the newest and gain the lines only the others had', () => {
    const merges = findDuplicates(
      [
        mem('a.md', `${LONG}\nowner: data team`, { modified: '2026-02-01T00:00:00.000Z' }),
        mem('b.md', `${LONG}\n`, { modified: '2026-03-01T00:00:00.000Z' }),
      ],
      isTeam,
    );
    assert.equal(merges.length, 1);
    assert.equal(merges[0]!.keep, 'b.md');
    assert.deepEqual(merges[0]!.drop, ['a.md']);
    assert.match(merges[0]!.body!, /owner: data team/);
  });

  it('different types never merge; short texts merge only when identical', () => {
    assert.deepEqual(findDuplicates([mem('a.md', LONG), mem('b.md', LONG, { type: 'reference' })], isTeam), []);
    assert.deepEqual(findDuplicates([mem('a.md', 'use tabs'), mem('b.md', 'use spaces')], isTeam), []);
  });

  it('a private near copy of a team memory is left alone; an exact one is dropped, the team file kept', () => {
    const near = findDuplicates([mem('team/a.md', LONG), mem('b.md', `${LONG}\nextra line`)], isTeam);
    assert.deepEqual(near, []);
    const exact = findDuplicates([mem('b.md', LONG), mem('team/a.md', LONG)], isTeam);
    assert.equal(exact[0]!.keep, 'team/a.md');
    assert.deepEqual(exact[0]!.drop, ['b.md']);
    assert.equal(exact[0]!.body, undefined, 'the team file is not rewritten');
  });

  it('mergeBodies inserts before the Why line and adds nothing twice', () => {
    const out = mergeBodies('Fact.\n\n**Why:** w\n**How to apply:** h\n', ['Fact.\nOther fact.\n**Why:** x']);
    assert.equal(out, 'Fact.\nOther fact.\n\n**Why:** w\n**How to apply:** h\n');
    assert.equal(mergeBodies('Fact.\n', ['fact.']), undefined);
  });
});

describe('guardedPath', () => {
  it('refuses CLAUDE.md and anything outside the memory folder', () => {
    for (const f of ['CLAUDE.md', 'team/claude.local.md', '../x.md', '../../etc/passwd']) {
      assert.throws(() => guardedPath('/m/memory', f), { code: 'INTERNAL' }, f);
    }
    assert.equal(guardedPath('/m/memory', 'team/a.md'), join('/m/memory', 'team', 'a.md'));
  });
});

describe('readSessionLines', () => {
  it('keeps human prompts and assistant text, skips tool results, meta lines and broken JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-dream-s-'));
    try {
      const p = join(dir, 's.jsonl');
      const rec = (o: unknown) => JSON.stringify(o);
      writeFileSync(
        p,
        [
          rec({ type: 'user', timestamp: '2026-03-01T10:00:00Z', message: { content: 'fix the parser' } }),
          rec({ type: 'user', message: { content: [{ type: 'tool_result', content: 'ok' }] } }),
          rec({ type: 'user', isMeta: true, message: { content: 'meta' } }),
          '{broken',
          rec({ type: 'assistant', message: { content: [{ type: 'text', text: 'Fixed.' }] } }),
          rec({ type: 'summary', summary: 'x' }),
        ].join('\n'),
      );
      assert.deepEqual(readSessionLines(p), [
        { role: 'user', text: 'fix the parser', at: '2026-03-01T10:00:00Z' },
        { role: 'assistant', text: 'Fixed.' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('palaceArchive', () => {
  it('searches the palace in the wing of the working directory only', async () => {
    const palace = await createPalace({
      store: createMemoryStore(),
      graph: createMemoryGraphTables(),
      tunnels: createMemoryTunnelStore(),
      config: { extractGraph: false },
    });
    try {
      const wing = projectWing('/work/acme-api');
      await palace.addDrawer({ wing, room: 'decisions', text: 'The job queue moved from Postgres to SQLite.' });
      await palace.addDrawer({ wing: 'other', room: 'decisions', text: 'The job queue stays on Postgres.' });
      const hits = await palaceArchive(palace, '/work/acme-api').search('job queue Postgres', 5);
      assert.deepEqual(
        hits.map((h) => h.text),
        ['The job queue moved from Postgres to SQLite.'],
      );
    } finally {
      await palace.close();
    }
  });
});
