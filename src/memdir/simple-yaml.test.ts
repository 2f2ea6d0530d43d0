/**
 * @module memdir/simple-yaml.test
 * The yaml-free reader of simple frontmatter agrees with the `yaml` package on everything it
 * accepts, and declines everything else (hand-picked cases, then generated documents).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';
import { parseYaml } from './frontmatter.js';

/** What `yaml` reads, as frontmatter.ts asks it to. */
function viaPackage(text: string): unknown {
  const doc = parseDocument(text.replace(/\r\n/g, '\n'), { uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  return doc.errors.length ? { errors: doc.errors.length } : (doc.toJS({ maxAliasCount: 100 }) ?? {});
}

function agrees(text: string): void {
  const simple = parseSimpleYaml(text);
  if (simple !== undefined) assert.deepEqual(simple, viaPackage(text), JSON.stringify(text));
}

describe('parseSimpleYaml', () => {
  it('reads the frontmatter Loci and Claude Code write', () => {
    const text =
      'name: ana\ndescription: Ana, backend developer, prefers short answers with code\n' +
      'metadata:\n  type: user\n  privacy: private\nmodified: 2026-12-01T17:07:03.628Z\n';
    assert.deepEqual(parseSimpleYaml(text), {
      name: 'ana',
      description: 'Ana, backend developer, prefers short answers with code',
      metadata: { type: 'user', privacy: 'private' },
      modified: '2026-12-01T17:07:03.628Z',
    });
    agrees(text);
    agrees(text.replace(/\n/g, '\r\n'));
    assert.deepEqual(parseSimpleYaml(''), {});
    const quoted =
      'description: "tests need --runInBand: one database"\nb: \'it\'\nmetadata:\n  pinned: true\n  x: FALSE\n';
    assert.deepEqual(parseSimpleYaml(quoted), {
      description: 'tests need --runInBand: one database',
      b: 'it',
      metadata: { pinned: true, x: false },
    });
    agrees(quoted);
  });

  it('declines what it does not read exactly like yaml', () => {
    for (const text of [
      'a: "esc\\"aped"\n',
      'a: "back\\\\slash"\n',
      "a: 'it''s'\n",
      'a: "open\n',
      'a: "x" y\n',
      'a: 12\n',
      'a: 1.5\n',
      'a: null\n',
      'a: ~\n',
      'a:\n',
      'a: x # comment\n',
      '# comment\na: x\n',
      'a: [1, 2]\n',
      'a: {b: c}\n',
      'a: |\n  text\n',
      'a: &x y\nb: *x\n',
      'a: !tag y\n',
      'a:\n  - x\n',
      'a: b: c\n',
      'a: x\na: y\n',
      'a:x\n',
      'a:  x\n',
      'a: x \n',
      'a: x\n\nb: y\n',
      'a:\tx\n',
      'true: x\n',
      'a:\n    b: c\n',
      '  b: c\n',
      'a: -x\n',
      'a: .inf\n',
      'a: 0x1F\n',
      'a: 0o17\n',
      'constructor: x\n',
    ]) {
      assert.equal(parseSimpleYaml(text), undefined, JSON.stringify(text));
    }
  });

  it('agrees with the yaml package on generated documents', () => {
    const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,6}$/);
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.stringMatching(/^[ -~]{1,20}$/),
      fc.constantFrom('2026-01-02', 'x: y', 'a #b', 'a#b', 'http://x.y/z', '1e3', '-1', '+.5', 'No', 'yes', 'TRUE'),
      fc.stringMatching(/^[ -~]{0,12}$/).map((s) => `"${s}"`),
      fc.stringMatching(/^[ -~]{0,12}$/).map((s) => `'${s}'`),
      fc.constantFrom('true', 'True', 'false', 'FALSE', 'tRue'),
    );
    const line = fc.oneof(
      fc.tuple(word, value).map(([k, v]) => `${k}: ${v}`),
      fc
        .tuple(word, fc.array(fc.tuple(word, value), { maxLength: 3 }))
        .map(([k, kids]) => `${k}:${kids.map(([kk, v]) => `\n  ${kk}: ${v}`).join('')}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => agrees(lines.map((l) => `${l}\n`).join(''))),
      { numRuns: 500 },
    );
  });
});

describe('parseYaml on simple frontmatter', () => {
  it('gives the data without a document until one is asked for, then the same document', () => {
    const p = parseYaml('name: x\nmetadata:\n  type: user\n');
    assert.deepEqual(p.data, { name: 'x', metadata: { type: 'user' } });
    assert.deepEqual(p.errors, []);
    assert.deepEqual(p.doc.toJS(), p.data);
    assert.equal(p.doc, p.doc, 'parsed once');
  });
});
