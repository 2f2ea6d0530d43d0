/**
 * @module ingest/convos-miner/whole-file
 * Conversation files read whole and replaced whole: ChatGPT and Claude.ai exports, Gemini JSON
 * chats, checkpoints and `logs.json`, plain-text / markdown chat logs — and Slack channels, whose
 * unit is the channel folder (all its day files: a thread's replies may be filed on later days).
 *
 * Every conversation of the file gets its own chunk-index slot (in file order) and is chunked
 * completely (nothing stays open). A changed file whose content hash is unchanged (touched) only
 * refreshes its bookkeeping.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { fsError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { DrawerInput } from '../../store/ports.js';
import {
  isSlackExportRoot,
  parseConversations,
  parseSlackChannel,
  slackUsersFromJson,
  type Conversation,
  type SlackDayFile,
} from '../convos/index.js';
import { advanceCursor, newCursor, redactConversation, redactor } from './drawers.js';
import { sourceState } from './file-io.js';
import type { ConvoContext, ConvoJob, PreparedUnit, WholeSourceState } from './types.js';

function read(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw fsError(e, path);
  }
}

/** The `users.json` map of the Slack export holding channel folder `dir`, if any. */
function slackUsers(dir: string): ((id: string) => string | undefined) | undefined {
  const root = dirname(dir);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return undefined;
  }
  if (!isSlackExportRoot(names)) return undefined;
  const file = join(root, 'users.json');
  if (!existsSync(file)) return undefined;
  let users: Record<string, string>;
  try {
    users = slackUsersFromJson(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  return (id) => users[id];
}

function finish(
  job: ConvoJob,
  ctx: ConvoContext,
  hash: string,
  bytes: number,
  convs: readonly Conversation[],
  warnings: string[],
): PreparedUnit {
  const { unit, prev } = job;
  const path = unit.path;
  const state: WholeSourceState = { v: 1, kind: unit.kind === 'slack' ? 'slack' : 'whole', format: unit.format };
  const f = { size: unit.size, mtimeMs: unit.mtimeMs };
  if (prev && prev.kind === 'convo' && prev.config === ctx.config && prev.hash === hash) {
    const wing = prev.wing;
    return {
      kind: 'touch',
      path,
      state: sourceState(path, ctx, wing, f, { hash, offset: bytes, prefixHash: null, state }),
      bytesRead: bytes,
      redactions: 0,
      conversations: 0,
      warnings,
    };
  }
  const red = redactor(ctx);
  const drawers: DrawerInput[] = [];
  let conversations = 0;
  let wing: string | null = null;
  convs.forEach((c, slot) => {
    const conv = redactConversation(c, red);
    const cur = newCursor(conv, slot);
    const d = advanceCursor(path, cur, conv, ctx, { close: true, whole: true }).drawers;
    wing ??= cur.wing;
    if (d.length) conversations++;
    drawers.push(...d);
  });
  return {
    kind: 'replace',
    path,
    state: sourceState(path, ctx, wing ?? ctx.wing ?? ctx.fallbackWing, f, {
      hash,
      offset: bytes,
      prefixHash: null,
      state,
    }),
    drawers,
    skipIfHash: hash,
    bytesRead: bytes,
    redactions: red.count,
    conversations,
    warnings,
  };
}

/** Mines one whole-file conversation file. Throws only for an unreadable file. */
export function prepareWhole(job: ConvoJob, ctx: ConvoContext): PreparedUnit {
  const path = job.unit.path;
  const buf = read(path);
  const warnings: string[] = [];
  const hash = sha256(buf);
  if (job.prev?.hash === hash && job.prev.config === ctx.config && job.prev.kind === 'convo')
    return finish(job, ctx, hash, buf.length, [], warnings);
  if (!isUtf8(buf)) warnings.push(`${path}: not valid UTF-8 (decoded with replacement characters)`);
  const r = parseConversations(path, buf.toString('utf8'), {
    format: job.unit.format,
    toolResultChars: ctx.toolResultChars,
    toolInputChars: ctx.toolInputChars,
    includeBranches: ctx.includeBranches,
  });
  warnings.push(...r.warnings.map((w) => `${path}: ${w}`));
  return finish(job, ctx, hash, buf.length, r.conversations, warnings);
}

/** Mines one Slack channel folder (all its day files, see the module comment). */
export function prepareSlack(job: ConvoJob, ctx: ConvoContext): PreparedUnit {
  const dir = job.unit.path;
  const h = createHash('sha256');
  const files: SlackDayFile[] = [];
  let bytes = 0;
  for (const p of job.unit.files ?? []) {
    const buf = read(p);
    bytes += buf.length;
    h.update(basename(p)).update('\0').update(buf).update('\0');
    files.push({ name: basename(p), content: buf.toString('utf8') });
  }
  const hash = h.digest('hex');
  const warnings: string[] = [];
  if (job.prev?.hash === hash && job.prev.config === ctx.config && job.prev.kind === 'convo')
    return finish(job, ctx, hash, bytes, [], warnings);
  const users = slackUsers(dir);
  const r = parseSlackChannel(dir, files, users ? { resolveSlackUser: users } : undefined);
  warnings.push(...r.warnings.map((w) => `${dir}: ${w}`));
  return finish(job, ctx, hash, bytes, r.conversations, warnings);
}
