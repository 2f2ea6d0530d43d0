/**
 * @module ingest/convos-miner/claude-file
 * One Claude Code transcript (session or subagent file): append-only mining.
 *
 * - First read, or a file that cannot be continued (shrunk, prefix hash differs, other settings,
 *   a rewind or fork the cursor cannot follow — `reparse`): read the complete lines of the whole
 *   file with a null cursor and chunk every conversation it holds (the active thread, abandoned
 *   branches, other thread groups); the result **replaces** the source (`skipIfHash`).
 * - Otherwise read only the bytes after the committed offset, advance the thread cursor
 *   (`advanceClaudeCodeThread`) and the exchange cursor, and **append** the drawers of the
 *   exchanges that closed, guarded by the offset (`appendSource`).
 * The open last exchange of the active thread is stored at once and stays in the cursor; when it
 * grows, its drawers are replaced in the same transaction as the append (see drawers). Abandoned
 * branches and other thread groups are complete when read and are stored whole.
 */
import { readSync, openSync, closeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { advanceClaudeCodeThread, type ParseOptions } from '../convos/index.js';
import type { DrawerInput, SourceState } from '../../store/ports.js';
import { advanceCursor, newCursor, redactConversation, redactThreadState, redactor } from './drawers.js';
import { appendAnswer, canContinue, prefixHash, sourceState, withFile, type OpenFile } from './file-io.js';
import { MAX_LINE_BYTES, readLines, type ReadLinesResult } from './read-lines.js';
import type { ClaudeSourceState, ConvoContext, ConvoJob, PreparedUnit } from './types.js';

/** Bytes of a sidecar read (enough for the longest head a tool line keeps, in UTF-8). */
function sidecarBytes(ctx: ConvoContext): number {
  return (ctx.toolResultChars * 2 + 1024) * 4;
}

/**
 * The sidecar hook of a transcript: `<session>/tool-results/<name>` beside a session file
 * `<session>.jsonl`, or in the session folder holding `subagents/agent-<id>.jsonl`. Names with a
 * path separator or `..` are refused.
 */
function sidecarResolver(path: string, ctx: ConvoContext): (name: string) => string | undefined {
  const dir = dirname(path);
  const base =
    basename(dir) === 'subagents'
      ? join(dirname(dir), 'tool-results')
      : join(dir, basename(path).replace(/\.jsonl$/i, ''), 'tool-results');
  const max = sidecarBytes(ctx);
  return (name) => {
    if (!name || name.includes('/') || name.includes('\\') || name.includes('..')) return undefined;
    let fd: number | undefined;
    try {
      fd = openSync(join(base, name), 'r');
      const buf = Buffer.allocUnsafe(max);
      const n = readSync(fd, buf, 0, max, 0);
      return buf.subarray(0, n).toString('utf8');
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
}

function parseOptions(path: string, ctx: ConvoContext): ParseOptions {
  return {
    toolResultChars: ctx.toolResultChars,
    toolInputChars: ctx.toolInputChars,
    includeBranches: ctx.includeBranches,
    resolveSidecar: sidecarResolver(path, ctx),
  };
}

/** Reads the whole file and replaces the source (first read or `reparse`). */
function full(path: string, f: OpenFile, ctx: ConvoContext, warnings: string[]): PreparedUnit {
  const read = readLines(f, 0);
  const { lines, consumed: nextOffset } = read;
  readWarnings(path, read, 1, warnings);
  const red = redactor(ctx);
  const r = advanceClaudeCodeThread(null, lines, path, parseOptions(path, ctx));
  warnings.push(...r.warnings.map((w) => `${path}: ${w}`));
  const drawers: DrawerInput[] = [];
  let main: ClaudeSourceState['main'] = null;
  let slots = 1;
  let conversations = 0;
  for (const c of r.conversations) {
    const conv = redactConversation(c, red);
    const primary = conv.source === path;
    const cur = newCursor(conv, primary ? 0 : slots++);
    const d = advanceCursor(path, cur, conv, ctx, { close: !primary, whole: false }).drawers;
    if (primary) main = cur;
    if (d.length) conversations++;
    drawers.push(...d);
  }
  const state: ClaudeSourceState = {
    v: 1,
    kind: 'claude',
    format: 'claude-code',
    thread: redactThreadState(r.state, ctx),
    main,
    slots,
  };
  const hash = read.hash;
  return {
    ...sessionOf(state),
    kind: 'replace',
    path,
    state: sourceState(path, ctx, main?.wing ?? ctx.wing ?? ctx.fallbackWing, f, {
      hash,
      offset: nextOffset,
      prefixHash: prefixHash(f, nextOffset),
      state,
    }),
    drawers,
    skipIfHash: hash,
    bytesRead: read.read,
    redactions: red.count,
    conversations,
    warnings,
  };
}

/** Continues from the stored cursor; null when the file must be read whole instead. */
function append(
  path: string,
  f: OpenFile,
  prev: SourceState,
  st: ClaudeSourceState,
  ctx: ConvoContext,
  warnings: string[],
): PreparedUnit | null {
  if (st.thread === null) return null;
  const read = readLines(f, prev.offset, { chain: prev.hash });
  const { lines, consumed: nextOffset } = read;
  const red = redactor(ctx);
  let thread = st.thread;
  let main = st.main;
  let drawers: DrawerInput[] = [];
  let remove: string[] = [];
  if (lines.length > 0) {
    const r = advanceClaudeCodeThread(st.thread, lines, path, parseOptions(path, ctx));
    if (r.status === 'reparse') return null; // a rewind or fork the cursor cannot follow: read whole
    readWarnings(path, read, st.thread.nextLine, warnings);
    warnings.push(...r.warnings.map((w) => `${path}: ${w}`));
    thread = redactThreadState(r.state, ctx);
    const conv = redactConversation(r.conversation, red);
    if (conv.messages.length > 0 || main) {
      main ??= newCursor(conv, 0);
      ({ drawers, remove } = advanceCursor(path, main, conv, ctx, { close: false, whole: false }));
    }
  } else if (f.size === prev.size && f.mtimeMs === prev.mtimeMs) {
    return { kind: 'unchanged', path, bytesRead: read.read, redactions: 0, conversations: 0, warnings };
  }
  const state: ClaudeSourceState = { v: 1, kind: 'claude', format: 'claude-code', thread, main, slots: st.slots };
  const answer = appendAnswer(
    path,
    f,
    prev,
    ctx,
    { read: read.read, consumed: nextOffset, hash: read.hash },
    main?.wing ?? prev.wing,
    state,
    {
      drawers,
      remove,
      redactions: red.count,
      conversations: drawers.length ? 1 : 0,
      warnings,
    },
  );
  return { ...answer, ...sessionOf(state) };
}

/** Warnings of a read: invalid UTF-8, and huge lines left out (`firstLine`: number of the first line read). */
export function readWarnings(path: string, r: ReadLinesResult, firstLine: number, warnings: string[]): void {
  if (r.invalidUtf8Lines)
    warnings.push(`${path}: ${r.invalidUtf8Lines} line(s) were not valid UTF-8 (decoded with replacement characters)`);
  for (const x of r.huge) {
    warnings.push(
      `${path}: line ${firstLine + x.index} is ${(x.bytes / 1048576).toFixed(1)} MB, over the ` +
        `${MAX_LINE_BYTES / 1048576} MB line limit: not read (the conversation continues around it)`,
    );
  }
}

/** The session a transcript belongs to (see `JobCounts.session`). */
function sessionOf(st: ClaudeSourceState): { session?: { id: string; main: boolean } } {
  const id = st.thread?.facts.sessionId;
  return id ? { session: { id, main: st.thread!.group === 'main' } } : {};
}

/** Mines one Claude Code transcript (see the module comment). Throws only for an unreadable file. */
export function prepareClaude(job: ConvoJob, ctx: ConvoContext, st: ClaudeSourceState | null): PreparedUnit {
  const { path } = job.unit;
  const warnings: string[] = [];
  return withFile(path, (f) => {
    const r = st && job.prev && canContinue(f, job.prev) ? append(path, f, job.prev, st, ctx, warnings) : null;
    return r ?? full(path, f, ctx, warnings);
  });
}
