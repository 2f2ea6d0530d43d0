/** @module kg/extract/code-rules.test — coding-conversation rules, the prose filter, entity merging. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryGraphStore, extractFromDrawer, type ExtractionInput, type ExtractionResult } from '../index.js';
import { proseText } from './extract.js';

const drawer = (text: string, extra: Partial<ExtractionInput> = {}): ExtractionInput => ({
  id: 'd1',
  text,
  contentDate: '2026-02-11T10:00:00.000Z',
  wing: 'proj',
  room: 'general',
  metadata: { format: 'claude-code', speakers: ['user', 'assistant'] },
  ...extra,
});
const facts = (r: ExtractionResult) => [
  ...r.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`),
  ...r.invalidations.map((i) => `END ${i.subject} ${i.predicate} ${i.object}`),
];
const one = (text: string, extra?: Partial<ExtractionInput>) =>
  facts(extractFromDrawer(drawer(text, extra), { userName: 'sam' }));

test('coding rules: one example each (the coding rows of ARCHITECTURE.md)', () => {
  const table: [string, string[]][] = [
    [
      'Assistant: Done. Created `connectors/` directory and moved `ptz-connector` into `connectors/`.',
      ['proj created connectors/', 'ptz-connector located_in connectors/'],
    ],
    [
      'Assistant: I have updated `/boot/refind_linux.conf` with the new options.',
      ['proj modified /boot/refind_linux.conf'],
    ],
    [
      'Assistant: All changes made:\n- Installed highlight.js npm package\n- Updated `assets/js/app.js` with the hook',
      ['proj uses highlight.js', 'proj modified assets/js/app.js'],
    ],
    ['Assistant: The `Icon` is set to `web-browser`, a generic icon.', ['Icon set_to web-browser']],
    ['Assistant: The server is now running at http://localhost:3000/.', ['proj port 3000']],
    [
      'Assistant: This skill covers Bastion. Bastion runs as a local HTTP server (default `http://localhost:3000`).',
      ['Bastion port 3000'],
    ],
    [
      'Assistant: Current version is 0.2.0. Bumped the version to 0.3.0 and tagged it.',
      ['proj version 0.2.0', 'proj version 0.3.0'],
    ],
    ['Assistant: Upgraded `axum` to 0.8.1.', ['axum version 0.8.1']],
    ['Assistant: It seems Helium is Chromium-based.', ['Helium uses Chromium']],
    ['Assistant: We ship Bastion. Bastion is a Rust middleware between agents and the chain.', ['Bastion uses Rust']],
    ['User: we replaced webpack with vite last month.', ['proj uses vite', 'END proj uses webpack']],
    ['User: We decided to keep the PTZ code in athena-capture.', ['proj decided keep the PTZ code in athena-capture']],
    ['User: we decided to split the docs - even though it took a while.', ['proj decided split the docs']],
    [
      'Assistant: `xterm.css` is in `priv/static/assets/` which is gitignored.',
      ['xterm.css located_in priv/static/assets/'],
    ],
    ['Assistant: Added `sha2` dependency to `Cargo.toml`.', ['Cargo.toml contains sha2']],
  ];
  for (const [text, want] of table) assert.deepEqual(one(text).sort(), want.sort(), text);
});

test('coding rules: the port rule still fires on every form its narrower hint admits', () => {
  // The hint only admits lines holding `port <digits>` or `<loopback host>:<digits>` (every match of the rule
  // ends so); lines with "import", "support" or "report" alone are no longer tried.
  const table: [string, string[]][] = [
    ['Assistant: The API server listens on port 8080 now.', ['proj port 8080']],
    ['Assistant: Uvicorn is serving on 127.0.0.1:8000.', ['proj port 8000']],
    ['Assistant: The dev server started on 0.0.0.0:5173 after the import of `vite`.', ['proj port 5173']],
    ['Assistant: We import the support report and export it.', []],
  ];
  for (const [text, want] of table) assert.deepEqual(one(text).sort(), want.sort(), text);
});

test('coding rules: requests, plans, questions, hedges and plain nouns give nothing', () => {
  for (const text of [
    'User: can you use uv?',
    'Assistant: I will update `config.ts` next.',
    'Assistant: Let me check if `helium` is installed at `/usr/bin/helium`.',
    'Assistant: I should update the `options` in `refind.conf`.',
    'Assistant: If the server runs on port 4000 we need a proxy.',
    'Assistant: Tests use Phoenix.ConnTest and the sandbox.',
    'Assistant: so we use a SessionStart hook workaround',
    'Assistant: I will install Ansible using Chocolatey.',
    'Assistant: Everything uses the new API now.',
    'Assistant: Let me bump the version to 1.0.0 after the tests.',
    'Assistant: The backup is at `/boot/refind.conf.bak`.',
    'Assistant: Updated the README with examples.',
  ])
    assert.deepEqual(one(text), [], text);
});

test('nothing is read from tool calls, tool results, shell, diff or code lines', () => {
  const text = [
    'User: fix the build',
    'Assistant: [Bash] npm install pnpm && echo "We use pnpm"',
    '→ added 1 package; We switched from npm to pnpm.',
    '$ git tag v9.9.9 # Current version is 9.9.9',
    '+We use Redis for caching.',
    'diff --git a/src/zeta.rs b/src/zeta.rs',
    'index ef89eb6..6cea227 100644',
    '| `a1b2c3` | Updated `src/a.ts` |',
    '    We use Kafka.',
    'version = "0.3.0"',
    '<command-name>We use Mongo.</command-name>',
    'Tool: We migrated to Postgres.',
    '```',
    'We use Bun.',
    '```',
    'Updated `lib/app.ex` with the fix.',
  ].join('\n');
  assert.deepEqual(one(text), ['proj modified lib/app.ex']);
  const prose = proseText(drawer(text));
  for (const word of ['pnpm', 'Redis', 'Kafka', '9.9.9', '0.3.0', 'Mongo', 'Postgres', 'Bun', 'a1b2c3', 'zeta', 'ef89'])
    assert.ok(!prose.includes(word), word);
  // the prose after a tool call stays in its caller's turn
  assert.deepEqual(one('User: hi\nAssistant: [Read src/a.ts]\nI created `src/b.ts`.'), ['proj created src/b.ts']);
});

test('nothing is extracted from code files, tests or fixtures; prose documents are read', () => {
  const text = 'We switched from npm to pnpm last week. Dr. Chén works at Acme Inc.';
  const file = (rel: string, kind: string, language?: string) =>
    drawer(text, { source: `/repo/${rel}`, metadata: { rel, kind, ...(language ? { language } : {}) } });
  for (const d of [
    file('src/setup.ts', 'code', 'typescript'),
    file('config/app.json', 'text', 'json'),
    file('test/fixtures/notes.md', 'markdown', 'markdown'),
    file('src/kg/extract.test.ts', 'code', 'typescript'),
    file('docs/__fixtures__/chat.txt', 'text'),
  ]) {
    const r = extractFromDrawer(d);
    assert.deepEqual(
      [r.entities.length, r.facts.length, r.invalidations.length],
      [0, 0, 0],
      String(d.metadata?.['rel']),
    );
  }
  assert.ok(extractFromDrawer(file('docs/decisions.md', 'markdown', 'markdown')).facts.length > 0);
});

test('one person is one entity across titles, case and accents', async () => {
  const g = createMemoryGraphStore();
  await g.init();
  for (const [id, text] of [
    ['a', 'Dr. Chén joined Stanford University in 2021.'],
    ['b', 'Ana: I talked to Chen about it. Bo: chen agrees, Dr Chen said so too.'],
  ] as const)
    await g.apply(
      extractFromDrawer({
        id,
        text,
        contentDate: '2023-05-10T00:00:00Z',
        wing: 'w',
        room: 'r',
        speakers: ['Ana', 'Bo'],
      }),
      { lenient: true },
    );
  const people = (await g.entities({ limit: 100 })).items
    .filter((e) => e.type === 'person')
    .map((e) => e.id)
    .sort();
  assert.deepEqual(people, ['ana', 'bo', 'chen']);
  for (const n of ['Chen', 'Dr. Chén', 'chen', 'DR CHEN']) assert.equal((await g.resolveEntity(n))?.id, 'chen', n);
  const links = (await g.drawersForEntities(['chen'], { limit: 10 })).map((l) => l.drawerId).sort();
  assert.deepEqual(links, ['a', 'b']);
  assert.equal((await g.query('Chen', { asOf: '2022-01-01' }))[0]?.objectName, 'Stanford University');
});

test('structured reports: file lists give purposes, component records give status and location', () => {
  const text = [
    'Assistant: I restructured the project:',
    '### Directory Structure:',
    '- `js/` - JavaScript modules',
    '  - `data.js` - Contains the sample data structure',
    '  - `styles.css` - Moved styles into this directory',
    '1. **README.md** - Explains the concept',
    '2. **Docker** - Containers everywhere',
    '- `decision`: ALLOWED or BLOCKED',
    '- `spotter-fum.3`: IN PROGRESS, not yet committed',
    '',
    '**Athena-SAM (Functional Pipeline)**',
    '- **Status**: Working webcam image processing pipeline ✅',
    '- **Features**: YAML configuration, real-time processing',
    '- **Location**: `/code/athena/athena-sam/`',
    '',
    '### What is missing or needs work next',
    '- **Status**: nothing to say',
    '3. Files and Code Sections:',
    '- **`assets/js/app.js`** (MODIFIED - task 3)',
    '- **`priv/static/app.css`** (CREATED - task 2, MODIFIED - task 3)',
    '- **`lib/parser.ex`** (READ ONLY)',
    '### `GET /logs` — Fetch audit logs',
    '- `POST /override` — Human override for blocked transactions',
  ].join('\n');
  assert.deepEqual(
    one(text).sort(),
    [
      'Athena-SAM located_in /code/athena/athena-sam/',
      'Athena-SAM status Working webcam image processing pipeline',
      'README.md purpose Explains the concept',
      'data.js purpose Contains the sample data structure',
      'js/ purpose JavaScript modules',
      'spotter-fum.3 status IN PROGRESS, not yet committed',
      'proj modified assets/js/app.js',
      'proj created priv/static/app.css',
      'proj modified priv/static/app.css',
      'GET /logs purpose Fetch audit logs',
      'POST /override purpose Human override for blocked transactions',
    ].sort(),
  );
});

test('structured reports: section titles are not components', () => {
  for (const heading of [
    '### Current State',
    '**Key Findings**',
    '## Next Steps',
    '### Summary',
    '**What we accomplished:**',
  ])
    assert.deepEqual(
      one(`Assistant: report\n${heading}\n- **Status**: all green\n- **Location**: \`/srv/app/\``),
      [],
      heading,
    );
});
