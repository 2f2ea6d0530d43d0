/**
 * @module test/e2e/mcp-tools
 * Every Loci MCP tool over an in-memory transport pair with the SDK client, against a real palace
 * (the fixture project and a chat file mined into a temp folder). Checks the listing (names,
 * titles, schemas, annotations), each tool's structured result and text, drawer ids in results,
 * and catalogue errors as `isError` results. The last test fails if a listed tool was never called.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../fixtures/mcp/harness.js';

const ID = /^[0-9a-z_]{6,}$/i;

describe('Loci MCP tools (in-memory transport)', () => {
  let h: Harness;
  /** The real clock plus a skew that a test can advance instead of waiting. */
  const clock = { skew: 0, now: () => Date.now() + clock.skew };
  let listed: {
    name: string;
    title?: string;
    description?: string;
    annotations?: Record<string, unknown>;
    inputSchema: { properties?: Record<string, unknown>; additionalProperties?: unknown };
    outputSchema?: unknown;
  }[] = [];
  before(async () => {
    h = await startHarness({ clock });
    listed = (await h.client.listTools()).tools as typeof listed;
  });
  after(() => h.close());

  test('lists at least 30 tools, each described, annotated and schema-typed', () => {
    assert.ok(listed.length >= 30, `${listed.length} tools`);
    const names = listed.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, 'names are unique');
    for (const t of listed) {
      assert.match(t.name, /^loci_[a-z]+(_[a-z]+)*$/, t.name);
      assert.ok(t.title && t.title.length > 3, `${t.name} has a title`);
      assert.ok(t.description && t.description.length > 40, `${t.name} has a description for the model`);
      assert.ok(t.outputSchema, `${t.name} has an output schema`);
      assert.equal(t.inputSchema.additionalProperties, false, `${t.name} rejects unknown arguments`);
      const a = t.annotations ?? {};
      for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
        assert.equal(typeof a[k], 'boolean', `${t.name}.${k}`);
      assert.equal(a['openWorldHint'], false);
      if (a['readOnlyHint']) assert.equal(a['destructiveHint'], false, `${t.name}: a read cannot be destructive`);
    }
    const ann = (n: string) => listed.find((t) => t.name === n)?.annotations ?? {};
    for (const n of ['loci_search', 'loci_status', 'loci_get_drawer', 'loci_memory_recall', 'loci_kg_query'])
      assert.equal(ann(n)['readOnlyHint'], true, n);
    for (const n of [
      'loci_delete_drawer',
      'loci_memory_forget',
      'loci_kg_invalidate',
      'loci_delete_tunnel',
      'loci_sync',
    ])
      assert.equal(ann(n)['destructiveHint'], true, n);
  });

  test('initialize carries short instructions, not a protocol essay per call', () => {
    const instructions = h.client.getInstructions() ?? '';
    assert.match(instructions, /loci_search/);
    assert.ok(instructions.length < 1000);
  });

  test('loci_status is cheap and counts the mined palace', async () => {
    const r = await h.call('loci_status');
    assert.equal(r.isError, false);
    const perWing = (await h.palace.listWings()) as Record<string, number>;
    assert.equal(
      r.data.drawers,
      Object.values(perWing).reduce((a, b) => a + b, 0),
    );
    assert.ok(r.data.drawers >= 5, 'four project drawers and the chat');
    assert.equal(r.data.wings, 2);
    assert.equal(r.data.index.lexical, 'ok');
    assert.equal(r.data.capabilities.knowledge_graph, true);
    assert.ok(r.text.length < 400, 'no protocol text in status');
  });

  test('wings, rooms and taxonomy', async () => {
    const w = await h.call('loci_list_wings');
    assert.deepEqual(w.data.wings.map((x: { wing: string }) => x.wing).sort(), ['lantern', 'ops']);
    const r = await h.call('loci_list_rooms', { wing: 'lantern' });
    assert.equal(r.data.wing, 'lantern');
    assert.ok(r.data.rooms.some((x: { room: string }) => x.room === 'docs'));
    const all = await h.call('loci_list_rooms');
    assert.equal(all.data.wing, null);
    const t = await h.call('loci_get_taxonomy');
    const lantern = t.data.wings.find((x: { wing: string }) => x.wing === 'lantern');
    assert.equal(lantern.drawers, 4);
    assert.equal(
      lantern.rooms.reduce((n: number, x: { drawers: number }) => n + x.drawers, 0),
      4,
    );
    assert.match(t.text, /lantern \(4\)/);
  });

  test('loci_search returns drawer ids, places, explain and context', async () => {
    const r = await h.call('loci_search', { query: 'why did we move to OAuth2', limit: 3, explain: true, context: 1 });
    assert.equal(r.isError, false);
    const top = r.data.hits[0];
    assert.match(top.id, ID);
    assert.match(top.source, /auth\.md$/);
    assert.equal(top.wing, 'lantern');
    assert.ok(top.explain.signals.bm25, 'explain lists the bm25 signal');
    assert.ok(Array.isArray(top.context));
    assert.ok(r.text.includes(top.id), 'the text rendering names the drawer id');
    // Compact hits (issue 10, point 9): provenance kept, storage-only fields gone.
    assert.match(top.date, /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$/);
    for (const k of ['filed_at', 'line_start', 'line_end', 'content_date']) assert.ok(!(k in top), k);
    assert.ok(!('took_ms' in r.data));
    const long = await h.call('loci_add_drawer', {
      wing: 'lantern',
      room: 'notes',
      content:
        `${'filler words about nothing in particular. '.repeat(40)}The zebra migration finished on Tuesday. ` +
        `${'more filler text here. '.repeat(40)}`,
    });
    assert.equal(long.isError, false, long.text);
    const ex = (await h.call('loci_search', { query: 'zebra migration', wing: 'lantern', room: 'notes' })).data.hits[0];
    assert.ok(ex.chars > ex.text.length && ex.text.length <= 602, `${ex.text.length} of ${ex.chars}`);
    assert.match(ex.text, /zebra migration finished/);
    const whole = (
      await h.call('loci_search', { query: 'zebra migration', wing: 'lantern', room: 'notes', text_chars: 0 })
    ).data.hits[0];
    assert.equal(whole.text.length, ex.chars);
    assert.ok(!('chars' in whole));
    await h.call('loci_delete_drawer', { drawer_id: ex.id });
    const filtered = await h.call('loci_search', { query: 'export batches timeout', wing: 'ops' });
    assert.ok(filtered.data.hits.length >= 1);
    assert.ok(filtered.data.hits.every((x: { wing: string }) => x.wing === 'ops'));
    const none = await h.call('loci_search', {
      query: 'OAuth2',
      wing: 'ops',
      room: 'nowhere',
      hall: 'facts',
      since: '2001-01-01',
      until: '2001-12-31',
      mode: 'lexical',
    });
    assert.deepEqual(none.data.hits, []);
    assert.match(none.text, /nothing found/);
  });

  test('bad arguments are INVALID_ARGUMENT results, not protocol errors', async () => {
    const unknown = await h.call('loci_search', { query: 'x', wing_name: 'lantern' });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.data.error.code, 'INVALID_ARGUMENT');
    assert.match(unknown.data.error.message, /wing_name/);
    const range = await h.call('loci_search', { query: 'x', limit: 1000 });
    assert.equal(range.data.error.code, 'INVALID_ARGUMENT');
    assert.equal(range.data.error.details.name, 'limit');
    const missing = await h.call('loci_get_drawer', {});
    assert.equal(missing.data.error.code, 'INVALID_ARGUMENT');
    assert.match(missing.text, /^loci: .*\[INVALID_ARGUMENT\]$/);
  });

  test('drawers: add, duplicate check, get, neighbours, update, list, delete', async () => {
    const text = 'Decision: Lantern retries failed jobs five times with exponential backoff capped at one minute.';
    const add = await h.call('loci_add_drawer', {
      wing: 'lantern',
      room: 'decisions',
      hall: 'decisions',
      content: text,
      metadata: { by: 'test' },
    });
    assert.equal(add.data.added, true);
    const id = add.data.drawer_id as string;
    assert.match(id, ID);
    assert.match(add.text, new RegExp(id));
    const again = await h.call('loci_add_drawer', {
      wing: 'lantern',
      room: 'decisions',
      hall: 'decisions',
      content: text,
      metadata: { by: 'test' },
    });
    assert.deepEqual([again.data.added, again.data.drawer_id], [false, id]);

    const dup = await h.call('loci_check_duplicate', { content: text });
    assert.equal(dup.data.is_duplicate, true);
    assert.equal(dup.data.exact[0].id, id);
    const near = await h.call('loci_check_duplicate', { content: text.replace('five', 'six'), threshold: 0.7 });
    assert.equal(near.data.similar[0]?.id, id, 'a near copy is found by similarity');
    const fresh = await h.call('loci_check_duplicate', {
      content: 'completely unrelated words about gardening tomatoes',
    });
    assert.equal(fresh.data.is_duplicate, false);

    const got = await h.call('loci_get_drawer', { drawer_id: id });
    assert.equal(got.data.drawer.text, text);
    assert.equal(got.data.drawer.hall, 'decisions');
    assert.deepEqual(got.data.drawer.metadata, { by: 'test' });
    assert.equal(got.data.drawer.added_by, 'mcp');

    const hit = (await h.call('loci_search', { query: 'OAuth2 cookies', wing: 'lantern' })).data.hits[0];
    const nb = await h.call('loci_drawer_neighbours', { drawer_id: hit.id, n: 1 });
    assert.ok(nb.data.drawers.some((d: { id: string }) => d.id === hit.id));
    assert.equal((await h.call('loci_drawer_neighbours', { drawer_id: 'nope' })).data.error.code, 'DRAWER_NOT_FOUND');

    const upd = await h.call('loci_update_drawer', {
      drawer_id: id,
      room: 'adr',
      content: `${text} Revisited in review.`,
    });
    assert.equal(upd.data.drawer.id, id);
    assert.equal(upd.data.drawer.room, 'adr');
    assert.equal((await h.call('loci_update_drawer', { drawer_id: id })).data.error.code, 'INVALID_ARGUMENT');
    assert.equal(
      (await h.call('loci_update_drawer', { drawer_id: 'nope', room: 'x' })).data.error.code,
      'DRAWER_NOT_FOUND',
    );

    const page1 = await h.call('loci_list_drawers', { wing: 'lantern', limit: 2 });
    assert.equal(page1.data.total, 5);
    assert.equal(page1.data.next_offset, 2);
    assert.ok(page1.data.drawers.every((d: { id: string; preview: string }) => ID.test(d.id) && d.preview.length > 0));
    const last = await h.call('loci_list_drawers', { wing: 'lantern', limit: 2, offset: 4, order: 'source' });
    assert.equal(last.data.next_offset, null);
    const byRoom = await h.call('loci_list_drawers', { room: 'adr', hall: 'decisions' });
    assert.deepEqual(
      byRoom.data.drawers.map((d: { id: string }) => d.id),
      [id],
    );

    const del = await h.call('loci_delete_drawer', { drawer_id: id });
    assert.equal(del.data.deleted, true);
    assert.equal((await h.call('loci_delete_drawer', { drawer_id: id })).data.deleted, false);
    const gone = await h.call('loci_get_drawer', { drawer_id: id });
    assert.equal(gone.isError, true);
    assert.equal(gone.data.error.code, 'DRAWER_NOT_FOUND');
    assert.deepEqual(gone.data.error.details, { id });
  });

  test('loci_mine is incremental and loci_sync forgets deleted files', async () => {
    const again = await h.call('loci_mine', { path: h.project, wing: 'lantern' });
    assert.equal(again.data.files_mined, 0);
    assert.ok(again.data.files_unchanged >= 4);
    writeFileSync(
      join(h.project, 'docs', 'runbook.md'),
      '# Runbook\n\nRestart the scheduler with `lantern restart` after a config change.\n',
    );
    const progress: number[] = [];
    const rel = await h.client.callTool({ name: 'loci_mine', arguments: { path: '.', wing: 'lantern' } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    h.called.add('loci_mine');
    assert.equal(
      (rel.structuredContent as { path: string }).path,
      h.project,
      "relative to the server's cwd (the project)",
    );
    assert.ok(progress.length >= 1, 'progress notifications reach a client that asked for them');
    const missing = await h.call('loci_mine', { path: join(h.project, 'nope') });
    assert.equal(missing.data.error.code, 'PATH_NOT_FOUND');
    const outside = await h.call('loci_mine', { path: h.chat });
    assert.equal(
      outside.data.error.code,
      'MINE_OUTSIDE_ROOTS',
      'only the project and the Claude Code folder by default',
    );
    rmSync(join(h.project, 'docs', 'deploy.md'));
    assert.equal(existsSync(join(h.project, 'docs', 'deploy.md')), false);
    const s = await h.call('loci_sync', { path: h.project });
    assert.equal(s.data.sources_removed, 1);
    assert.ok(s.data.drawers_removed >= 1);
    assert.equal((await h.call('loci_sync')).data.sources_removed, 0);
  });

  test('diary: write and read back, newest first', async () => {
    const w1 = await h.call('loci_diary_write', {
      agent: 'claude',
      entry: 'Moved the export job to batched commits.',
      topic: 'ops',
    });
    clock.skew += 1000;
    const w2 = await h.call('loci_diary_write', {
      agent: 'claude',
      entry: 'Reviewed the OAuth2 migration plan with Priya.',
      project: 'lantern',
    });
    assert.match(w1.data.drawer_id, ID);
    const r = await h.call('loci_diary_read', { agent: 'claude', limit: 5 });
    assert.equal(r.data.total, 2);
    assert.deepEqual(
      r.data.entries.map((e: { id: string }) => e.id),
      [w2.data.drawer_id, w1.data.drawer_id],
    );
    assert.equal(r.data.entries[1].topic, 'ops');
    assert.ok(r.text.includes(w1.data.drawer_id));
    assert.equal((await h.call('loci_diary_read', { agent: 'nobody' })).data.total, 0);
  });

  test('memory files: write, list, read, edit, recall, where, forget', async () => {
    const w = await h.call('loci_memory_write', {
      type: 'feedback',
      name: 'testing policy',
      description: 'integration tests must hit a real database, not mocks',
      body: 'Integration tests run against a real SQLite file in a temp folder.',
      why: 'mocked tests passed while the migration broke production',
      how: 'use mkdtemp and the real driver in every integration test',
    });
    assert.equal(w.isError, false, w.text);
    assert.equal(w.data.memory.type, 'feedback');
    assert.equal(w.data.kind, 'loci', "no Claude Code directory here, so Loci's own is used");
    assert.ok(w.data.dir.startsWith(h.home));
    assert.equal(
      (await h.call('loci_memory_write', { type: 'feedback', name: 'testing policy', description: 'again' })).data.error
        .code,
      'MEMORY_EXISTS',
    );
    assert.equal(
      (await h.call('loci_memory_write', { type: 'opinion', name: 'x', description: 'y' })).data.error.code,
      'INVALID_ARGUMENT',
    );
    await h.call('loci_memory_write', {
      type: 'user',
      name: 'role',
      description: 'the user is a backend engineer',
      scope: 'user',
    });
    const team = await h.call('loci_memory_write', {
      type: 'reference',
      name: 'ci dashboard',
      description: 'CI runs are on the ops dashboard',
      team: true,
    });
    assert.equal(team.data.memory.team, true);
    assert.match(team.data.memory.file, /^team\//);
    await h.call('loci_memory_forget', { name: team.data.memory.file });

    const list = await h.call('loci_memory_list');
    assert.deepEqual(
      list.data.memories.map((m: { name: string }) => m.name),
      ['testing-policy'],
    );
    assert.equal((await h.call('loci_memory_list', { scope: 'user' })).data.memories.length, 1);
    const read = await h.call('loci_memory_read', { name: 'testing policy' });
    assert.match(read.data.memory.body, /real SQLite/);
    assert.equal((await h.call('loci_memory_read', { name: 'nothing like it' })).data.error.code, 'MEMORY_NOT_FOUND');

    const e = await h.call('loci_memory_edit', {
      name: 'testing policy',
      description: 'integration tests hit a real database',
      pinned: true,
    });
    assert.equal(e.data.changed, true);
    assert.equal(e.data.memory.pinned, true);

    const rc = await h.call('loci_memory_recall', { query: 'how should I write integration tests for the database?' });
    assert.equal(rc.data.memories[0]?.name, 'testing-policy');
    assert.match(rc.text, /real SQLite/);
    const none = await h.call('loci_memory_recall', { query: 'favourite colour of the moon', scope: 'user' });
    assert.equal(none.isError, false);

    const where = await h.call('loci_memory_where');
    assert.equal(where.data.dir, w.data.dir);
    assert.equal(where.data.project_root, h.project);

    const f = await h.call('loci_memory_forget', { name: 'testing policy' });
    assert.equal(f.data.forgotten.name, 'testing-policy');
    assert.equal((await h.call('loci_memory_list')).data.memories.length, 0);
  });

  test('loci_wake_up briefs with identity, pinned memories and recent items', async () => {
    writeFileSync(join(h.home, 'identity.md'), 'I am the coding agent of the Lantern team.\n');
    await h.call('loci_memory_write', {
      type: 'project',
      name: 'release freeze',
      description: 'no deploys on Fridays',
      body: 'Releases freeze every Friday.',
      pinned: true,
    });
    const w = await h.call('loci_wake_up', { wing: 'lantern', max_tokens: 400 });
    assert.equal(w.isError, false, w.text);
    assert.equal(w.data.wing, 'lantern');
    assert.ok(w.data.tokens <= 400);
    assert.ok(
      w.data.refs.some((id: string) => /release-freeze/.test(id)),
      JSON.stringify(w.data.refs),
    );
    assert.match(w.text, /Lantern team/);
    for (const id of w.data.refs) assert.ok(w.data.text.includes(id), `the text cites ${id}`);
    // Compact (issue 10, point 9): the model reads JSON.stringify(structuredContent) — the text once, plus the refs.
    assert.deepEqual(Object.keys(w.data).sort(), ['memory_dir', 'omitted', 'refs', 'text', 'tokens', 'wing']);
    assert.ok(JSON.stringify(w.data).length < w.data.text.length * 1.3 + 400);
    await h.call('loci_memory_forget', { name: 'release freeze' });
  });

  test('knowledge graph: add, query as of, invalidate, timeline, stats, entities', async () => {
    const before = (await h.call('loci_kg_stats')).data;
    const hit = (await h.call('loci_search', { query: 'OAuth2 migration Priya' })).data.hits[0];
    const a1 = await h.call('loci_kg_add', {
      subject: 'Priya',
      predicate: 'works_on',
      object: 'OAuth2 migration',
      valid_from: '2026-01-10',
      source_drawer_ids: [hit.id],
    });
    assert.equal(a1.isError, false, a1.text);
    assert.ok(a1.data.fact.source_drawer_ids.includes(hit.id));
    assert.ok(a1.text.includes(hit.id), 'facts name their drawers');
    await h.call('loci_kg_add', { subject: 'Lantern', predicate: 'uses', object: 'SQLite', valid_from: '2025-06-01' });
    const objects = (r: { data: { facts: { predicate: string; object_name: string }[] } }) =>
      r.data.facts.filter((f) => f.predicate === 'works_on').map((f) => f.object_name);
    assert.deepEqual(objects(await h.call('loci_kg_query', { entity: 'priya' })), ['OAuth2 migration']);
    const inv = await h.call('loci_kg_invalidate', {
      subject: 'Priya',
      predicate: 'works_on',
      object: 'OAuth2 migration',
      ended: '2026-03-01',
    });
    assert.equal(inv.data.invalidated.length, 1);
    assert.equal(
      (await h.call('loci_kg_invalidate', { subject: 'Priya', predicate: 'works_on', object: 'OAuth2 migration' })).data
        .invalidated.length,
      0,
    );
    assert.deepEqual(objects(await h.call('loci_kg_query', { entity: 'Priya' })), [], 'no longer true now');
    assert.deepEqual(
      objects(await h.call('loci_kg_query', { entity: 'Priya', as_of: '2026-02-01', direction: 'out' })),
      ['OAuth2 migration'],
      'still true in February',
    );
    const tl = await h.call('loci_kg_timeline', { entity: 'Priya' });
    assert.ok(
      tl.data.facts.some(
        (f: { predicate: string; valid_to: string | null }) =>
          f.predicate === 'works_on' && f.valid_to?.startsWith('2026-03-01'),
      ),
    );
    const st = await h.call('loci_kg_stats');
    assert.equal(st.data.facts, before.facts + 2);
    assert.ok(st.data.predicates.some((p: { predicate: string }) => p.predicate === 'uses'));
    const ents = await h.call('loci_kg_entities', { limit: 200 });
    assert.ok(ents.data.entities.some((x: { name: string }) => x.name === 'Priya'));
    assert.equal(
      (await h.call('loci_kg_query', { entity: 'Nobody Known Xyzzy' })).data.error.code,
      'KG_ENTITY_NOT_FOUND',
    );
    assert.equal(
      (await h.call('loci_kg_add', { subject: 'A', predicate: 'p', object: 'B', valid_from: 'yesterday-ish' })).data
        .error.code,
      'KG_INVALID_DATE',
    );
  });

  test('tunnels: find, create, list, follow, traverse, delete', async () => {
    await h.call('loci_add_drawer', {
      wing: 'ops',
      room: 'docs',
      content: 'Runbook: restart the export worker after a Postgres upgrade.',
    });
    const find = await h.call('loci_find_tunnels', { wing_a: 'lantern', wing_b: 'ops' });
    assert.deepEqual(find.data.links, [{ room: 'docs', wings: ['lantern', 'ops'] }]);
    const authId = (await h.call('loci_search', { query: 'OAuth2', wing: 'lantern' })).data.hits[0].id;
    const c = await h.call('loci_create_tunnel', {
      source_wing: 'lantern',
      source_room: 'docs',
      target_wing: 'ops',
      target_room: 'general',
      label: 'same incident',
      target_drawer_id: authId,
    });
    assert.equal(c.isError, false, c.text);
    const tid = c.data.tunnel.id as string;
    assert.equal(
      (
        await h.call('loci_create_tunnel', {
          source_wing: 'ops',
          source_room: 'general',
          target_wing: 'lantern',
          target_room: 'docs',
          label: 'renamed',
          target_drawer_id: authId,
        })
      ).data.tunnel.id !== tid,
      true,
      'drawer ends make a different tunnel',
    );
    assert.equal(
      (await h.call('loci_create_tunnel', { source_wing: 'a', source_room: 'b', target_wing: 'a', target_room: 'b' }))
        .data.error.code,
      'KG_TUNNEL_SELF',
    );
    const list = await h.call('loci_list_tunnels', { wing: 'lantern' });
    assert.ok(list.data.tunnels.some((t: { id: string }) => t.id === tid));
    const follow = await h.call('loci_follow_tunnels', { wing: 'lantern', room: 'docs' });
    const link = follow.data.links.find((l: { tunnel_id: string }) => l.tunnel_id === tid);
    assert.equal(link.to.drawer_id, authId);
    assert.match(link.drawer_preview, /OAuth2/);
    const tr = await h.call('loci_traverse', { wing: 'lantern', room: 'docs', max_hops: 2 });
    const reached = tr.data.rooms.map((r: { wing: string; room: string }) => `${r.wing}/${r.room}`);
    assert.ok(reached.includes('ops/docs') && reached.includes('ops/general'), reached.join(' '));
    assert.equal((await h.call('loci_delete_tunnel', { tunnel_id: tid })).data.deleted, true);
    assert.equal((await h.call('loci_delete_tunnel', { tunnel_id: tid })).data.deleted, false);
  });

  test('every listed tool was exercised by this suite', () => {
    const missed = listed.map((t) => t.name).filter((n) => !h.called.has(n));
    assert.deepEqual(missed, [], `add a test for ${missed.join(', ')}`);
  });
});

describe('Loci MCP tools without a knowledge graph', () => {
  test('graph and tunnel tools are left out, not stubbed', async () => {
    const h = await startHarness({ withoutGraph: true });
    try {
      const names = (await h.client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.some((n) => n.startsWith('loci_kg_') || n.includes('tunnel') || n === 'loci_traverse'));
      assert.equal((await h.call('loci_status')).data.capabilities.knowledge_graph, false);
    } finally {
      await h.close();
    }
  });
});
