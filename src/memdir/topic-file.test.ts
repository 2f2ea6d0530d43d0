import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  applyTopicPatch,
  parseTopicFile,
  renderNewTopicFile,
  splitFrontmatter,
  joinFrontmatter,
  withWhyHow,
  NOT_RECORDED,
} from './index.js';

const FIX = new URL('../../test/fixtures/memdir/claude/', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, FIX), 'utf8');
const NOW = '2026-05-01T12:00:00.000Z';

test('old variant: 3-4 word title and top-level type', () => {
  const t = parseTopicFile(read('user_role.md'), 'user_role.md');
  assert.equal(t.name, 'User role and expertise');
  assert.equal(t.type, 'user');
  assert.equal(t.description, 'Senior backend engineer, new to the React side of the codebase');
  assert.equal(t.pinned, false);
  assert.equal(t.modified, undefined);
  assert.ok(t.body.startsWith('The user is a senior Go engineer'));
});

test('metadata.type variant with [[links]], code spans ignored, alias form', () => {
  const t = parseTopicFile(read('feedback_no-mocks.md'), 'feedback_no-mocks.md');
  assert.equal(t.type, 'feedback');
  assert.equal(t.name, 'no-mocks');
  assert.deepEqual(t.links, ['migration-incident', 'test-layout']);
});

test('durable lesson: no type anywhere, metadata.pinned', () => {
  const t = parseTopicFile(read('durable_verify-before-claiming.md'), 'durable_verify-before-claiming.md');
  assert.equal(t.type, null);
  assert.equal(t.pinned, true);
});

test('modified is read and normalised; quoted modified too', () => {
  assert.equal(parseTopicFile(read('project_release-freeze.md'), 'x.md').modified, '2026-03-01T10:15:00.000Z');
  assert.equal(parseTopicFile(read('reference_dashboards.md'), 'x.md').modified, '2026-02-14T08:00:00.000Z');
});

test('unknown keys are visible in data; team path; type from filename without frontmatter', () => {
  const d = parseTopicFile(read('reference_dashboards.md'), 'reference_dashboards.md');
  assert.equal(d.data['x-custom'], 'keep me');
  assert.equal(d.description, 'Where latency dashboards live: Grafana board "api-latency"');
  const team = parseTopicFile(read('team/reference_ci.md'), 'team/reference_ci.md');
  assert.equal(team.team, true);
  const none = parseTopicFile(read('project_notes.md'), 'project_notes.md');
  assert.equal(none.hasFrontmatter, false);
  assert.equal(none.type, 'project');
  assert.equal(none.name, 'project_notes');
  assert.ok(none.body.startsWith('# Notes'));
});

test('CRLF and BOM files parse', () => {
  const crlf = parseTopicFile(read('user_editor-crlf.md'), 'user_editor-crlf.md');
  assert.equal(crlf.split.eol, '\r\n');
  assert.equal(crlf.type, 'user');
  assert.equal(crlf.name, 'editor');
  assert.ok(!crlf.body.includes('\r'));
  const bom = parseTopicFile(read('feedback_bom.md'), 'feedback_bom.md');
  assert.equal(bom.split.bom, '\uFEFF');
  assert.equal(bom.name, 'small-prs');
  assert.equal(bom.type, 'feedback');
});

test('split/join is byte-identical for every fixture', () => {
  for (const f of [
    'user_role.md',
    'feedback_no-mocks.md',
    'durable_verify-before-claiming.md',
    'project_release-freeze.md',
    'reference_dashboards.md',
    'team/reference_ci.md',
    'project_notes.md',
    'user_editor-crlf.md',
    'feedback_bom.md',
  ]) {
    const text = read(f);
    assert.equal(joinFrontmatter(splitFrontmatter(text)), text, f);
    assert.equal(applyTopicPatch(text, f, {}, NOW), text, `${f}: empty patch`);
  }
});

test('a patch that sets the same values leaves the bytes alone', () => {
  const text = read('reference_dashboards.md');
  const same = applyTopicPatch(
    text,
    'reference_dashboards.md',
    { description: 'Where latency dashboards live: Grafana board "api-latency"', type: 'reference' },
    NOW,
  );
  assert.equal(same, text);
});

test('rewrite keeps unknown keys, comments, order and quoting, and stamps modified in place', () => {
  const text = read('reference_dashboards.md');
  const out = applyTopicPatch(text, 'reference_dashboards.md', { description: 'Grafana latency boards' }, NOW);
  assert.match(out, /^---\n# Written by hand; keep this comment.\nname: "dashboards"\n/);
  assert.match(out, /x-custom: keep me/);
  assert.match(out, /owner: platform-team/);
  assert.match(out, /modified: "2026-05-01T12:00:00.000Z"/);
  const keys = Object.keys(parseTopicFile(out, 'x.md').data);
  assert.deepEqual(keys, Object.keys(parseTopicFile(text, 'x.md').data));
  const before = parseTopicFile(text, 'reference_dashboards.md');
  const after = parseTopicFile(out, 'reference_dashboards.md');
  assert.deepEqual(
    { ...after.data, description: before.data['description'], modified: before.data['modified'] },
    before.data,
  );
  assert.equal(after.body, before.body);
});

test('old-variant rewrite keeps top-level type; privacy goes under metadata', () => {
  const out = applyTopicPatch(read('user_role.md'), 'user_role.md', { type: 'user', privacy: 'private' }, NOW);
  const t = parseTopicFile(out, 'user_role.md');
  assert.equal(t.data['type'], 'user');
  assert.deepEqual(t.data['metadata'], { privacy: 'private' });
  assert.equal(t.modified, NOW);
});

test('CRLF and BOM survive a rewrite', () => {
  const out = applyTopicPatch(
    read('user_editor-crlf.md'),
    'user_editor-crlf.md',
    { body: 'Uses Helix now.\nStill in a terminal.' },
    NOW,
  );
  assert.ok(!/[^\r]\n/.test(out), 'every line ends in CRLF');
  assert.match(out, /\r\n\r\nUses Helix now\.\r\nStill in a terminal\.\r\n$/);
  const bom = applyTopicPatch(read('feedback_bom.md'), 'feedback_bom.md', { description: 'PRs under 300 lines' }, NOW);
  assert.ok(bom.startsWith('\uFEFF---\n'));
  assert.equal(parseTopicFile(bom, 'feedback_bom.md').description, 'PRs under 300 lines');
});

test('never adds frontmatter to a file without one', () => {
  const text = read('project_notes.md');
  const out = applyTopicPatch(
    text,
    'project_notes.md',
    { body: '# Notes\n\nDana owns payments until 2026-05-31.' },
    NOW,
  );
  assert.ok(!out.startsWith('---'));
  assert.match(out, /Dana owns payments until 2026-05-31/);
  assert.match(out, /\*\*Why:\*\* \(not recorded\)/, 'project bodies written by Loci carry Why/How');
  assert.throws(() => applyTopicPatch(text, 'project_notes.md', { description: 'x' }, NOW), {
    code: 'MEMORY_NO_FRONTMATTER',
  });
});

test('invalid YAML is read leniently and never rewritten', () => {
  const text = '---\nname: [unclosed\ndescription: x\n---\nbody\n';
  const t = parseTopicFile(text, 'feedback_broken.md');
  assert.ok(t.errors.length > 0);
  assert.equal(t.type, 'feedback');
  assert.equal(t.name, 'feedback_broken');
  assert.throws(() => applyTopicPatch(text, 'feedback_broken.md', { description: 'y' }, NOW), {
    code: 'MEMORY_FRONTMATTER_INVALID',
  });
});

test('new files are the newest variant with Why/How lines', () => {
  const r = renderNewTopicFile({
    type: 'feedback',
    name: 'No Mocks',
    description: 'real DB in tests',
    body: 'Use a real database.',
    why: 'mocks hid a bug',
    privacy: 'private',
    modified: NOW,
  });
  assert.equal(r.fileName, 'feedback_no-mocks.md');
  assert.equal(
    r.text,
    '---\nname: no-mocks\ndescription: real DB in tests\nmetadata:\n  type: feedback\n  privacy: private\n' +
      'modified: 2026-05-01T12:00:00.000Z\n---\n\n' +
      `Use a real database.\n\n**Why:** mocks hid a bug\n**How to apply:** ${NOT_RECORDED}\n`,
  );
  const cjk = renderNewTopicFile({
    type: 'project',
    name: '設計レビュー',
    description: 'd',
    body: 'b',
    privacy: 'private',
    modified: NOW,
  });
  assert.match(cjk.fileName, /^project_m-[0-9a-f]{6}\.md$/);
  assert.equal(parseTopicFile(cjk.text, cjk.fileName).title, '設計レビュー');
  const ref = renderNewTopicFile({
    type: 'reference',
    name: 'Dash',
    description: 'd',
    body: 'b',
    privacy: 'team',
    modified: NOW,
  });
  assert.ok(!ref.text.includes('**Why:**'));
});

test('withWhyHow replaces given values and inserts Why before an existing How', () => {
  assert.equal(withWhyHow('project', 'Fact.\n\n**How to apply:** h', 'w'), 'Fact.\n\n**Why:** w\n**How to apply:** h');
  assert.equal(
    withWhyHow('feedback', 'Fact.\n\n**Why:** old\n**How to apply:** h', 'new'),
    'Fact.\n\n**Why:** new\n**How to apply:** h',
  );
  assert.equal(withWhyHow('user', 'Fact.', 'w', 'h'), 'Fact.');
});

test('edits keep Why/How lines when a new body omits them', () => {
  const out = applyTopicPatch(
    read('project_release-freeze.md'),
    'project_release-freeze.md',
    { body: 'Freeze moved to 2026-03-12..16.' },
    NOW,
  );
  const t = parseTopicFile(out, 'project_release-freeze.md');
  assert.match(
    t.body,
    new RegExp(
      String.raw`^Freeze moved to 2026-03-12\.\.16\.\n\n\*\*Why:\*\* the mobile team cuts the release branch on ` +
        String.raw`2026-03-05\.\n\*\*How to apply:\*\* flag any`,
    ),
  );
});

const line = fc
  .oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }))
  .filter((s) => s.trim() !== '' && !/[\r\n]/.test(s));

test('property: render → parse gives back what was written', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('user', 'feedback', 'project', 'reference' as const),
      line,
      line,
      fc.string({ maxLength: 200, unit: 'grapheme' }),
      (type, name, description, body) => {
        const r = renderNewTopicFile({
          type,
          name,
          description,
          body,
          privacy: type === 'reference' ? 'team' : 'private',
          modified: NOW,
        });
        const t = parseTopicFile(r.text, r.fileName);
        assert.equal(t.type, type);
        assert.equal(t.description, description.replace(/\s+/g, ' ').trim());
        assert.equal(t.modified, NOW);
        assert.equal(t.errors.length, 0);
        assert.equal(applyTopicPatch(r.text, r.fileName, {}, NOW), r.text);
      },
    ),
    { numRuns: 300 },
  );
});

test('property: patch → parse is equal, unknown keys and order kept, and a second identical patch is a no-op', () => {
  const base = read('reference_dashboards.md');
  fc.assert(
    fc.property(line, fc.string({ maxLength: 120 }), fc.boolean(), (description, body, pinned) => {
      const out = applyTopicPatch(base, 'reference_dashboards.md', { description, body, pinned }, NOW);
      const t = parseTopicFile(out, 'reference_dashboards.md');
      assert.equal(t.errors.length, 0);
      assert.equal(t.description, description.replace(/\s+/g, ' ').trim());
      assert.equal(t.pinned, pinned);
      assert.equal(t.data['x-custom'], 'keep me');
      assert.deepEqual(
        Object.keys(t.data).filter((k) => k !== 'modified'),
        Object.keys(parseTopicFile(base, 'x.md').data).filter((k) => k !== 'modified'),
      );
      assert.equal(
        applyTopicPatch(out, 'reference_dashboards.md', { description, body, pinned }, '2030-01-01T00:00:00.000Z'),
        out,
      );
    }),
    { numRuns: 200 },
  );
});
