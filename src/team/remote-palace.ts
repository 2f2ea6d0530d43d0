/**
 * @module team/remote-palace
 * The palace of a team server, seen through its JSON API: a {@link Palace} whose search, get,
 * listings, add, diary, mine (the files are read here and uploaded) and knowledge-graph calls go to
 * the server. The CLI uses it in remote mode (`LOCI_SERVER` / `--server`), so commands run
 * unchanged; what the server does not offer throws TEAM_REMOTE_UNSUPPORTED.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createError } from '../core/errors.js';
import { defaultWing } from '../core/project-identity.js';
import type { Palace, PalaceGraph } from '../palace/index.js';
import type { MineConvosSummary } from '../ingest/index.js';
import { walkProject } from '../ingest/index.js';
import type { TeamClient } from './client.js';

/** Largest upload batch, in characters of file text. */
const UPLOAD_BATCH_CHARS = 2 * 1024 * 1024;

/** Graph methods the server answers (`POST /api/v1/kg`). */
export const REMOTE_GRAPH_METHODS = [
  'query',
  'timeline',
  'resolveEntity',
  'entities',
  'stats',
  'factsForDrawer',
  'addFact',
  'invalidate',
] as const;

const unsupported = (operation: string) => async (): Promise<never> => {
  throw createError('TEAM_REMOTE_UNSUPPORTED', { operation });
};

/** Uploads the files of `path` in batches and lets the server mine them into `wing`. */
async function upload(client: TeamClient, path: string, wing: string): Promise<MineConvosSummary> {
  const root = resolve(path);
  const name = basename(root);
  let batch: { path: string; text: string }[] = [];
  let size = 0;
  let last: MineConvosSummary | undefined;
  const totals = { filesScanned: 0, filesMined: 0, drawersAdded: 0 };
  const flush = async () => {
    if (!batch.length && last) return;
    const r = await client.call<MineConvosSummary>('mine-upload', { wing, root: name, files: batch });
    totals.filesScanned += r.filesScanned;
    totals.filesMined += r.filesMined;
    totals.drawersAdded += r.drawersAdded;
    last = r;
    batch = [];
    size = 0;
  };
  for (const item of walkProject({ root })) {
    if (item.kind !== 'file') continue;
    const text = readFileSync(item.path, 'utf8');
    if (size + text.length > UPLOAD_BATCH_CHARS && batch.length) await flush();
    batch.push({ path: item.rel, text });
    size += text.length;
  }
  await flush();
  return { ...last!, ...totals };
}

/** The team server's palace as a {@link Palace} (see the module comment). `home` is the server URL. */
export function remotePalace(client: TeamClient): Palace {
  const kg = Object.fromEntries(
    REMOTE_GRAPH_METHODS.map((m) => [m, (...args: unknown[]) => client.call('kg', { method: m, args })]),
  );
  // Not thenable (`then` is undefined), so the objects can be returned from async functions.
  const graph = new Proxy(kg, {
    get: (t, prop) =>
      typeof prop !== 'string' || prop === 'then' ? undefined : prop in t ? t[prop] : unsupported(`kg ${prop}`),
  });
  const palaceGraph = new Proxy({ graph } as unknown as PalaceGraph, {
    get: (_t, prop) =>
      prop === 'graph'
        ? graph
        : typeof prop !== 'string' || prop === 'then'
          ? undefined
          : unsupported(`loci traverse / graph ${prop}`),
  });
  return {
    home: client.url,
    get store(): never {
      throw createError('TEAM_REMOTE_UNSUPPORTED', { operation: 'direct store access' });
    },
    mine: (path, o = {}) => upload(client, path, o.wing ?? defaultWing(resolve(path))),
    mineClaude: unsupported('loci mine --claude'),
    sync: unsupported('loci sync'),
    search: (query, options = {}) => client.call('search', { query, options }),
    get: async (id) => (await client.call<{ drawer?: never }>('get', { id })).drawer,
    neighbours: async (id, n) => (await client.call<{ drawers: never[] }>('neighbours', { id, n })).drawers,
    listWings: () => client.call('wings'),
    listRooms: (wing) => client.call('rooms', { wing }),
    listDrawers: (filter = {}, opts = {}) => client.call('drawers', { filter, opts }),
    addDrawer: (input) => client.call('add', { input }),
    updateDrawer: unsupported('updating a drawer'),
    deleteDrawer: unsupported('deleting a drawer'),
    findDuplicates: unsupported('finding duplicates'),
    status: () => client.call('status'),
    embed: unsupported('loci embed'),
    // The time is fixed here, so the client's one retry after a dropped connection writes the same drawer.
    diaryWrite: (input) =>
      client.call('diary-write', { input: { ...input, at: input.at ?? new Date().toISOString() } }),
    diaryRead: (agent, o = {}) => client.call('diary-read', { agent, options: o }),
    graph: async () => palaceGraph,
    close: async () => {},
  };
}
