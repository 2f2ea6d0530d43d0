/** @module ingest/project/rules.test — room, content date, language, binary detection and decoding rules. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  binaryPathReason,
  contentDateFor,
  decodeText,
  isBinaryPath,
  languageFor,
  looksBinary,
  roomForPath,
} from './index.js';

const MTIME = Date.UTC(2023, 6, 1, 12, 30, 0); // 2023-07-01T12:30:00.000Z

describe('roomForPath', () => {
  const table: [string, string][] = [
    ['src/search/x.ts', 'search'],
    ['packages/core/src/a.ts', 'core'],
    ['apps/web/src/page.tsx', 'web'],
    ['src/lib/foo/x.ts', 'foo'],
    ['src/lib/app/x.ts', 'app'], // at most two generic levels are skipped
    ['src/lib/x.ts', 'general'],
    ['src/index.ts', 'general'],
    ['README.md', 'general'],
    ['docs/guide/intro.md', 'docs'],
    ['Source/Parser/x.cs', 'parser'], // generic names compare case-insensitively
    ['internal/pkg/db/x.go', 'db'],
    ['My Notes (2024)/a.md', 'my-notes-2024'],
    ['Café Ünïcode/a.md', 'cafe-unicode'],
    ['.github/workflows/ci.yml', 'github'],
    ['under_score--dash/a', 'under_score-dash'],
    ['src\\windows\\path.ts', 'windows'],
    ['./src/search/x.ts', 'search'],
    ['认证/模块.md', 'general'], // nothing left after normalisation
    [`${'very-long-folder-name-'.repeat(3)}/x`, 'very-long-folder-name-very-long-folder-na'.slice(0, 40)],
  ];
  for (const [rel, room] of table) it(`${rel} → ${room}`, () => assert.equal(roomForPath(rel), room));
  it('never returns more than 40 characters, nor a trailing dash', () => {
    assert.equal(
      roomForPath('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbb/x'),
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    );
  });
});

describe('contentDateFor', () => {
  const table: [string, string, string, string][] = [
    ['date in the name', 'notes/2024-03-05-standup.md', 'Date: 2020-01-01', '2024-03-05'],
    ['underscores', 'log_2024_03_05.txt', '', '2024-03-05'],
    ['compact', 'IMG-20240305.txt', '', '2024-03-05'],
    ['compact with a time (migrations)', 'db/20240305123000_create_users.sql', '', '2024-03-05'],
    ['implausible compact value', 'build-20241399.txt', '', '2023-07-01T12:30:00.000Z'],
    ['digits inside a longer number', 'id-1202403051.txt', '', '2023-07-01T12:30:00.000Z'],
    ['Feb 30 is not a date', '2024-02-30.md', '', '2023-07-01T12:30:00.000Z'],
    ['only the file name counts', '2024-03-05/notes.md', '', '2023-07-01T12:30:00.000Z'],
    ['front matter date', 'post.md', '---\ntitle: x\ndate: 2022-11-09\n---\nbody', '2022-11-09'],
    [
      'front matter quoted date-time with zone',
      'post.md',
      '---\ndate: "2022-11-09T10:00:00+02:00"\n---',
      '2022-11-09T08:00:00.000Z',
    ],
    [
      'front matter date-time without zone is UTC',
      'post.md',
      '---\ncreated: 2022-11-09 10:15\n---',
      '2022-11-09T10:15:00.000Z',
    ],
    ['date wins over created', 'post.md', '---\ncreated: 2021-01-01\ndate: 2022-02-02\n---', '2022-02-02'],
    ['published', 'post.md', '---\npublished: 2021-05-06\n---', '2021-05-06'],
    ['front matter must open on line 1', 'post.md', '\n---\ncreated: 2022-11-09\n---', '2023-07-01T12:30:00.000Z'],
    [
      'front matter beyond line 30 is ignored',
      'post.md',
      `---\n${'k: v\n'.repeat(35)}date: 2022-11-09\n---`,
      '2023-07-01T12:30:00.000Z',
    ],
    ['invalid front-matter date falls through', 'post.md', '---\ndate: soon\n---\nDate: 2020-02-02', '2020-02-02'],
    ['Date: line', 'adr.md', '# ADR 7\n\nDate: 2021-12-24\n', '2021-12-24'],
    ['bold Date: line', 'adr.md', '# ADR\n**Date:** 2021-12-24', '2021-12-24'],
    ['RFC 2822 Date: line', 'mail.txt', 'From: a\nDate: Tue, 5 Mar 2024 10:00:00 +0100\n', '2024-03-05T09:00:00.000Z'],
    ['Month D, YYYY', 'memo.txt', 'Date: March 5, 2024', '2024-03-05'],
    ['Date: beyond line 10 is ignored', 'x.md', `${'line\n'.repeat(10)}Date: 2021-12-24`, '2023-07-01T12:30:00.000Z'],
    ['Updated: is not Date:', 'x.md', 'Updated: 2021-12-24', '2023-07-01T12:30:00.000Z'],
    ['nothing → mtime', 'x.ts', 'const x = 1;', '2023-07-01T12:30:00.000Z'],
  ];
  for (const [what, rel, text, want] of table) it(what, () => assert.equal(contentDateFor(rel, text, MTIME), want));
  it('uses the epoch for an invalid mtime', () =>
    assert.equal(contentDateFor('x', '', Number.NaN), '1970-01-01T00:00:00.000Z'));
});

describe('languageFor', () => {
  const table: [string, string | null][] = [
    ['a.ts', 'typescript'],
    ['a.TSX', 'typescript'],
    ['a.mjs', 'javascript'],
    ['a.py', 'python'],
    ['a.go', 'go'],
    ['a.rs', 'rust'],
    ['a.java', 'java'],
    ['a.cs', 'csharp'],
    ['a.cpp', 'cpp'],
    ['a.h', 'c'],
    ['a.kt', 'kotlin'],
    ['a.swift', 'swift'],
    ['a.php', 'php'],
    ['a.rb', 'ruby'],
    ['a.md', 'markdown'],
    ['a.mdx', 'mdx'],
    ['a.rst', 'restructuredtext'],
    ['a.txt', 'text'],
    ['a.yml', 'yaml'],
    ['a.json', 'json'],
    ['a.sql', 'sql'],
    ['a.sh', 'shell'],
    ['x/Dockerfile', 'dockerfile'],
    ['Dockerfile.dev', 'dockerfile'],
    ['Makefile', 'makefile'],
    ['GNUmakefile', 'makefile'],
    ['README', 'text'],
    ['.env', 'ini'],
    ['a.vue', 'vue'],
    ['LICENSE', 'text'],
    ['a.unknown', null],
    ['noext', null],
  ];
  for (const [rel, lang] of table) it(`${rel} → ${lang}`, () => assert.equal(languageFor(rel), lang));
});

describe('isBinaryPath', () => {
  it('skips binary formats, lockfiles, minified bundles, source maps and OS metadata', () => {
    for (const p of [
      'a.png',
      'b.JPG',
      'c.zip',
      'd.woff2',
      'e.mp4',
      'f.o',
      'g.pyc',
      'h.pdf',
      'i.sqlite',
      'j.parquet',
      'k.svg',
      'l.exe',
      'm.wasm',
      'package-lock.json',
      'yarn.lock',
      'pnpm-lock.yaml',
      'Cargo.lock',
      'go.sum',
      'poetry.lock',
      'x/any.lock',
      'app.min.js',
      'style.min.css',
      'bundle.js.map',
      '.DS_Store',
      'Thumbs.db',
      'model.onnx',
      'w.safetensors',
    ])
      assert.equal(isBinaryPath(p), true, p);
  });
  it('keeps text and source files, including unknown extensions', () => {
    for (const p of [
      'a.ts',
      'a.c',
      'a.vue',
      'a.ipynb',
      'Makefile',
      'a.min.md',
      'package.json',
      'go.mod',
      'a.unknownext',
      'lockfile.md',
      'minimal.js',
    ])
      assert.equal(isBinaryPath(p), false, p);
  });
  it('gives the reasons of the former whole-name implementation (only the extension is lower-cased now)', () => {
    // The former implementation, verbatim but for its two sets (read through the reasons it returns).
    const former = (rel: string): string | null => {
      const name = rel.slice(Math.max(rel.lastIndexOf('/'), rel.lastIndexOf('\\')) + 1).toLowerCase();
      if (GENERATED.includes(name)) {
        if (name === '.ds_store' || name.endsWith('thumbs.db') || name === 'icon\r') return 'os-metadata';
        return 'lockfile';
      }
      const dot = name.lastIndexOf('.');
      if (dot < 0) return null;
      const ext = name.slice(dot + 1);
      if (ext === 'lock' || ext === 'lockb') return 'lockfile';
      if (ext === 'map') return 'source-map';
      if ((ext === 'js' || ext === 'css' || ext === 'mjs' || ext === 'cjs') && /[.-]min\.[a-z]+$/.test(name))
        return 'minified';
      return binaryPathReason(`x.${ext}`);
    };
    const GENERATED = ['package-lock.json', 'yarn.lock', 'go.sum', 'thumbs.db', 'ehthumbs.db', '.ds_store', 'icon\r'];
    const parts = ['a', 'B', '.', '-', 'min', 'MIN', 'js', 'Css', 'map', 'lock', 'LOCKB', 'png', 'PNG', 'db', 'json'];
    const more = ['\u212a', '\u0130', '\u03a3', '\\', '/', 'thumbs', 'Thumbs', 'yarn', 'package-lock', 'go', 'sum'];
    const pool = [...parts, ...more];
    const r = (n: number) => Math.floor(Math.abs(Math.sin(n) * 10000)) % pool.length;
    const names = [...GENERATED, 'Yarn.LOCK', 'EHTHUMBS.DB', 'Icon\r', 'a.\u03a3', 'x.\u212a'];
    for (let i = 0; i < 20000; i++) {
      let n = '';
      for (let j = 0; j < 1 + (i % 5); j++) n += pool[r(i * 7 + j)]!;
      names.push(n);
    }
    for (const n of names) assert.equal(binaryPathReason(n), former(n), JSON.stringify(n));
  });
});

describe('looksBinary', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  it('flags a NUL byte in the first 8 KiB, or many control characters', () => {
    assert.equal(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])), true);
    assert.equal(looksBinary(new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 1 : 65)))), true);
    const lateNul = new Uint8Array(9000).fill(65);
    lateNul[8500] = 0;
    assert.equal(looksBinary(lateNul), false, 'only the first 8 KiB are inspected');
  });
  it('accepts text: UTF-8, tabs, CRLF, form feeds, ANSI colours, UTF-16 with a BOM', () => {
    assert.equal(looksBinary(enc('plain\ttext\r\nwith ünïcödé 认证 \f and \x1b[31mcolour\x1b[0m')), false);
    assert.equal(looksBinary(new Uint8Array(0)), false);
    const utf16le = new Uint8Array([0xff, 0xfe, ...Array.from(Buffer.from('hello world', 'utf16le'))]);
    assert.equal(looksBinary(utf16le), false);
    assert.equal(
      looksBinary(new Uint8Array([0xfe, 0xff, 0, 0x68, 0, 0, 0, 0x69])),
      true,
      'a NUL code unit in UTF-16 is binary',
    );
  });
});

describe('decodeText', () => {
  it('strips a UTF-8 BOM and reports valid text', () => {
    assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('héllo')])), {
      text: 'héllo',
      invalidUtf8: false,
    });
  });
  it('replaces invalid UTF-8 with U+FFFD and reports it', () => {
    assert.deepEqual(decodeText(new Uint8Array([0x61, 0xff, 0x62, 0xed, 0xa0, 0x80])), {
      text: 'a\ufffdb\ufffd\ufffd\ufffd',
      invalidUtf8: true,
    });
  });
  it('decodes UTF-16 LE and BE by their BOM', () => {
    const le = new Uint8Array([0xff, 0xfe, ...Buffer.from('認証 ok', 'utf16le')]);
    assert.deepEqual(decodeText(le), { text: '認証 ok', invalidUtf8: false });
    const be = Buffer.from('認証 ok', 'utf16le').swap16();
    assert.deepEqual(decodeText(new Uint8Array([0xfe, 0xff, ...be])), { text: '認証 ok', invalidUtf8: false });
  });
  it('never returns a lone surrogate: a broken UTF-16 pair is replaced and reported', () => {
    const r = decodeText(new Uint8Array([0xff, 0xfe, 0x3d, 0xd8, 0x61, 0x00])); // high surrogate, then 'a'
    assert.equal(r.invalidUtf8, true);
    assert.equal(r.text, '\ufffda');
  });
});
