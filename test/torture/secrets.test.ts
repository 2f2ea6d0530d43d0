/**
 * @module test/torture/secrets
 * Issue 11, secrets — a PLACEHOLDER for the pass-through of the secrets corpus (test/helpers/
 * secrets-corpus.ts, from h-redact): a few synthetic secrets (assembled at run time from pieces,
 * so no scanner flags this file) pushed through the ways text enters: mining a project file,
 * archiving a Claude Code transcript (hook queue + worker), direct palace writes (what MCP
 * `loci_add_drawer` and `loci diary write` call) and memory files. Replace the SECRETS list with
 * the corpus (formats and look-alikes, 0 false redactions) to complete it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { addMemory, openPalace, silentLogger, type Palace } from '../../src/internal.js';
import { runHook, runHookWorker } from '../../src/hooks/index.js';

/** Synthetic secrets of well-known formats (not real credentials). */
const SECRETS = [
  ['AKIA', 'Q3EXAMPLE7TORTUR'].join(''),
  ['ghp_', 'T0rtur3Exampl3T0k3nAbCdEfGhIjKlMnOpQr'].join(''),
  ['sk-ant-', 'api03-', 'torture0example1key2abcdefghijklmnop'].join(''),
  ['xoxb-', '1234567890-', '0987654321-', 'TortureExampleToken'].join(''),
  ['glpat-', 'T0rtureExample1234567'].join(''),
];
const sentence = (i: number) => `The deploy uses ${SECRETS[i % SECRETS.length]} for the release job (step ${i}).`;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'loci-torture-secrets-')));
const home = join(root, 'home');
const project = join(root, 'vault-app');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: join(root, 'userhome'),
  LOCI_HOME: home,
  CLAUDE_CONFIG_DIR: join(root, 'claude'),
  LOCI_HOOK_WORKER: '0',
  LOCI_HOOK_SERVER: '0',
  LOCI_EMBEDDER: '',
  LOCI_LLM_PROVIDER: '',
};
let palace: Palace;

/** Secrets found verbatim in any drawer column of the palace. */
function storedSecrets(): string[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    const all = (d.prepare('SELECT * FROM drawers').all() as Record<string, unknown>[])
      .map((r) => JSON.stringify(r))
      .join('\n');
    return SECRETS.filter((s) => all.includes(s));
  } finally {
    d.close();
  }
}

before(async () => {
  mkdirSync(join(project, 'docs'), { recursive: true });
  writeFileSync(
    join(project, 'docs', 'release.md'),
    `# Release\n\n${SECRETS.map((_, i) => sentence(i)).join('\n\n')}\n`,
  );
  palace = await openPalace({ home });
  await palace.mine(project);
  // A Claude Code transcript whose prompts and answers carry the secrets, archived by the hooks.
  const transcript = join(root, 'claude', 'projects', '-vault-app', 'session.jsonl');
  mkdirSync(join(transcript, '..'), { recursive: true });
  const lines: string[] = [];
  let parent: string | null = null;
  SECRETS.forEach((_, i) => {
    for (const role of ['user', 'assistant'] as const) {
      const uuid = `${role}-${i}`;
      lines.push(
        JSON.stringify({
          type: role,
          uuid,
          parentUuid: parent,
          sessionId: 'sec-1',
          cwd: project,
          timestamp: `2025-05-0${i + 1}T10:00:00Z`,
          message: {
            role,
            content:
              role === 'user'
                ? `Please wire up the release: ${sentence(i)}`
                : [{ type: 'text', text: `Done. ${sentence(i + 1)}` }],
          },
        }),
      );
      parent = uuid;
    }
  });
  writeFileSync(transcript, `${lines.join('\n')}\n`);
  await palace.close();
  await runHook(
    'session-end',
    JSON.stringify({ session_id: 'sec-1', transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd' }),
    { home, env, cwd: project, spawnWorker: false },
  );
  const s = await runHookWorker({ home, logger: silentLogger, env, refreshWakeUp: false });
  assert.equal(s.failed, 0);
  palace = await openPalace({ home });
});

after(async () => {
  await palace?.close();
  rmSync(root, { recursive: true, force: true });
});

test('mining and the hook archive store no secret', async () => {
  assert.ok(
    (
      await palace.listDrawers(
        { source: join(root, 'claude', 'projects', '-vault-app', 'session.jsonl') },
        { limit: 1 },
      )
    ).total > 0,
    'the transcript was archived',
  );
  assert.ok(
    (await palace.listDrawers({ source: join(project, 'docs', 'release.md') }, { limit: 1 })).total > 0,
    'the file was mined',
  );
  assert.deepEqual(storedSecrets(), []);
});

test('direct writes (MCP add_drawer, diary) store no secret', async () => {
  for (let i = 0; i < SECRETS.length; i++) {
    await palace.addDrawer({ wing: 'vault-app', room: 'notes', text: sentence(i), addedBy: 'mcp', source: null });
    await palace.diaryWrite({ agent: 'claude', entry: sentence(i) });
  }
  assert.deepEqual(storedSecrets(), []);
});

test('memory files written by Loci store no secret', () => {
  const dir = join(root, 'mem');
  addMemory(dir, {
    type: 'project',
    name: 'release credentials',
    description: 'how the release job authenticates',
    body: SECRETS.map((_, i) => sentence(i)).join('\n'),
  });
  const text = readFileSync(join(dir, 'project_release-credentials.md'), 'utf8');
  assert.deepEqual(
    SECRETS.filter((s) => text.includes(s)),
    [],
  );
});
