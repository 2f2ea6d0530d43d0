/**
 * @module palace/names.test
 * Names and mined paths are restricted in the library, so every front end gets the rules (issue
 * 11, defect 7): `..`, control and bidi characters and lone surrogates are refused with
 * NAME_INVALID, names are NFC-normalised and bounded, and `mine` with `roots` refuses paths
 * outside them (symlinks resolved).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isLociError } from '../core/errors.js';
import { checkName } from './names.js';
import { openPalace } from './open.js';
import type { Palace } from './palace.js';

const invalid = (reason: RegExp) => (e: unknown) =>
  isLociError(e, 'NAME_INVALID') && reason.test(e.message) && !e.message.includes('\n');

test('checkName refuses dots, controls, bidi controls and lone surrogates, and normalises to NFC', () => {
  for (const bad of ['..', '.', '../etc', 'a/../b', 'a\\..'])
    assert.throws(() => checkName('wing', bad), invalid(/path parts/), bad);
  assert.throws(() => checkName('room', 'evil\u202Etxt.exe'), invalid(/bidirectional-text control \(U\+202E\)/));
  assert.throws(() => checkName('room', 'a\u2066b'), invalid(/bidirectional/));
  assert.throws(() => checkName('room', 'a\nb'), invalid(/control character/));
  assert.throws(() => checkName('room', 'a\u0000b'), invalid(/control character/));
  assert.throws(() => checkName('wing', 'x\uD800y'), invalid(/lone surrogate/));
  assert.throws(() => checkName('wing', '   '), invalid(/empty/));
  assert.throws(() => checkName('wing', 'w'.repeat(201)), invalid(/longer than 200/));
  assert.equal(checkName('wing', ' cafe\u0301 '), 'caf\u00e9');
  assert.equal(checkName('room', 'auth-v2.1 😀 認証'), 'auth-v2.1 😀 認証');
  assert.equal(checkName('room', '..hidden'), '..hidden');
});

describe('the palace applies the rules', () => {
  let dir: string;
  let palace: Palace;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-names-'));
    palace = await openPalace({ home: join(dir, 'home'), embedder: null });
  });
  after(async () => {
    await palace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('addDrawer, updateDrawer, mine options and diary agents', async () => {
    await assert.rejects(palace.addDrawer({ wing: '..', room: 'r', text: 'x' }), invalid(/path parts/));
    await assert.rejects(palace.addDrawer({ wing: 'w', room: 'gpj.\u202Eexe', text: 'x' }), invalid(/bidirectional/));
    await assert.rejects(
      palace.addDrawer({ wing: 'w', room: 'r', hall: 'h\uDC00', text: 'x' }),
      invalid(/lone surrogate/),
    );
    const { id } = await palace.addDrawer({ wing: 'cafe\u0301', room: 'r', text: 'stored under an NFC name' });
    assert.equal((await palace.get(id))?.wing, 'caf\u00e9');
    await assert.rejects(palace.updateDrawer(id, { room: '..' }), invalid(/path parts/));
    assert.equal((await palace.get(id))?.room, 'r');
    mkdirSync(join(dir, 'proj'));
    writeFileSync(join(dir, 'proj', 'a.md'), '# A\n\nsome text worth mining\n');
    await assert.rejects(palace.mine(join(dir, 'proj'), { wing: '../../x' }), invalid(/path parts/));
    await assert.rejects(palace.diaryWrite({ agent: '..', entry: 'hello' }), (e: unknown) =>
      isLociError(e, 'INVALID_ARGUMENT'),
    );
  });

  test('mine with roots refuses paths outside them, symlinks resolved, without revealing what exists', async () => {
    const root = join(dir, 'root');
    mkdirSync(join(root, 'inside'), { recursive: true });
    writeFileSync(join(root, 'inside', 'note.md'), '# Note\n\ninside the root\n');
    mkdirSync(join(dir, 'secret'));
    writeFileSync(join(dir, 'secret', 'passwd'), 'root:x:0:0\n');
    symlinkSync(join(dir, 'secret'), join(root, 'link'));
    const outside = (e: unknown) => isLociError(e, 'MINE_OUTSIDE_ROOTS');
    await assert.rejects(palace.mine('/etc/passwd', { roots: [root] }), outside);
    await assert.rejects(palace.mine(join(dir, 'secret', 'passwd'), { roots: [root] }), outside);
    await assert.rejects(palace.mine(join(root, 'link'), { roots: [root] }), outside, 'a symlink out of the root');
    await assert.rejects(palace.mine(join(root, '..', 'secret'), { roots: [root] }), outside);
    await assert.rejects(
      palace.mine(join(dir, 'no-such'), { roots: [root] }),
      outside,
      'a missing path outside is outside, not "not found"',
    );
    await assert.rejects(palace.mine(join(root, 'no-such'), { roots: [root] }), (e: unknown) =>
      isLociError(e, 'PATH_NOT_FOUND'),
    );
    const s = await palace.mine(join(root, 'inside'), { roots: [root], mode: 'projects' });
    assert.equal(s.filesMined, 1);
  });
});
