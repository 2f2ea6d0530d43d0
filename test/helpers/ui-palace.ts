/**
 * @module test/helpers/ui-palace
 * A small palace for the web UI's browser tests and screenshots: a project (`widget`, a git repo)
 * with a few files — one of them holding `<script>` and an `onerror` handler that must show as
 * text — a Claude Code conversation from the fixtures, facts with validity windows, memory files and
 * a few hook log lines. Everything is written for this project; nothing is copied from real data.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addMemory, openPalace, selectMemoryDir } from '../../src/internal.js';
import { ROOT } from './cli.js';

/** A built fixture palace. */
export interface UiPalace {
  home: string;
  /** The project folder (`loci ui` runs here: it names the memory folder). */
  project: string;
  env: NodeJS.ProcessEnv;
  memoryDir: string;
  /** Text of the drawer that carries the hostile markup. */
  hostile: string;
}

/** Markup a drawer holds verbatim; the page must show it and never run it. */
export const HOSTILE =
  '<script>window.__lociPwned = 1</script> and <img src=x onerror="window.__lociPwned = 2"> ' +
  'are notes about escaping';

const FILES: Record<string, string> = {
  'README.md':
    '# Widget\n\nWidget ranks search results with hybrid fusion: BM25 first, then the session and time ' +
    'signals.\n\nDate: 2026-03-02\n',
  'src/auth/login.ts':
    '// 2026-01-15: login moved to short-lived tokens\nexport function login(user: string) {\n' +
    '  return `token for ${user}`;\n}\n',
  'docs/decisions.md':
    '# Decisions\n\n2025-11-20: we chose SQLite with WAL because several processes write one palace.\n\n' +
    '2026-02-10: the deploy pipeline moved from Jenkins to GitHub Actions.\n',
  'docs/escaping.md': `# Escaping\n\n${HOSTILE}\n`,
};

/** Builds the palace under `base` (an empty temp folder). */
export async function buildUiPalace(base: string): Promise<UiPalace> {
  const home = join(base, 'loci');
  const project = join(base, 'widget');
  const env: NodeJS.ProcessEnv = {
    HOME: join(base, 'home'),
    LOCI_HOME: home,
    CLAUDE_CONFIG_DIR: join(base, 'home', '.claude'),
    NO_COLOR: '1',
  };
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', project]);
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(join(project, rel, '..'), { recursive: true });
    writeFileSync(join(project, rel), text);
  }
  const convos = join(base, 'convos');
  cpSync(join(ROOT, 'test', 'fixtures', 'convos', 'claude-code', 'projects', '-home-dev-acme-api'), convos, {
    recursive: true,
  });
  const palace = await openPalace({ home, env });
  try {
    await palace.mine(project, { wing: 'widget' });
    await palace.mine(convos, { mode: 'convos' });
    const decisions = await palace.search('Jenkins GitHub Actions', { limit: 1 });
    const source = decisions.hits[0]?.id;
    const g = (await palace.graph()).graph;
    const from = source ? { sources: [source] } : {};
    await g.addFact({
      subject: 'widget',
      predicate: 'deploys_with',
      object: 'Jenkins',
      validFrom: '2025-06-01',
      ...from,
    });
    await g.invalidate('widget', 'deploys_with', 'Jenkins', { ended: '2026-02-10' });
    await g.addFact({
      subject: 'widget',
      predicate: 'deploys_with',
      object: 'GitHub Actions',
      validFrom: '2026-02-10',
      ...from,
    });
    await g.addFact({ subject: 'widget', predicate: 'uses', object: 'SQLite', validFrom: '2025-11-20' });
    await g.addFact({ subject: 'Alice', predicate: 'maintains', object: 'widget', validFrom: '2025-09-01' });
  } finally {
    await palace.close();
  }
  const memoryDir = selectMemoryDir({ cwd: project, env, lociHome: home }).dir;
  addMemory(memoryDir, {
    type: 'feedback',
    name: 'Run the browser tests',
    description: 'UI changes need the chromium tests',
    body: 'Run the browser tests before merging a UI change.',
    why: 'the page is what users see first',
    how: 'node --import tsx --test test/e2e/ui-browser.test.ts',
  });
  addMemory(memoryDir, {
    type: 'project',
    name: 'Deploys',
    description: 'how widget is deployed',
    body: 'Deploys run on GitHub Actions since February 2026.',
  });
  addMemory(memoryDir, {
    type: 'user',
    name: 'Preferences',
    description: 'how the user likes answers',
    body: 'Short answers, code first.',
    pinned: true,
  });
  mkdirSync(join(home, 'logs'), { recursive: true });
  const log = (t: string, level: string, event: string, message: string) =>
    JSON.stringify({ t, level, message, pid: 4242, event }) + '\n';
  writeFileSync(
    join(home, 'logs', 'hooks.log'),
    log('2026-03-02T09:00:00.000Z', 'info', 'stop', 'queued archive job') +
      log('2026-03-02T09:00:02.000Z', 'info', 'stop', 'archived transcript: 3 drawers mined') +
      log('2026-03-02T10:12:00.000Z', 'error', 'pre-compact', 'archive failed: transcript not found'),
  );
  return { home, project, env, memoryDir, hostile: HOSTILE };
}
