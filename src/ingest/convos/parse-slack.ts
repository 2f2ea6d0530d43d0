/**
 * @module ingest/convos/parse-slack
 * Slack workspace export: `users.json` and `channels.json` at the root, one folder per channel
 * holding `YYYY-MM-DD.json` day files (each an array of messages `{ type, subtype, user,
 * user_name, user_profile.real_name, text, ts, thread_ts, bot_id, username }`).
 *
 * Grouping (documented choice): the unit of parsing is a **channel** — `parseSlackChannel` takes all
 * its day files — because a thread's replies may be filed on later days. A thread (the parent
 * message and every reply sharing its `thread_ts`) is one conversation `slack:<channel>:<thread_ts>`;
 * the remaining top-level messages of a day form one conversation `slack:<channel>:<YYYY-MM-DD>`.
 * `parseConversations` on a single day file parses it as a one-file channel (threads then only
 * hold that day's replies); miners should group a channel folder and call `parseSlackChannel`.
 *
 * Speakers are real names: `user_profile.real_name` / `display_name`, else the `resolveSlackUser`
 * hook (see `slackUsersFromJson` for `users.json`), else `user_name` / `username`, else the label
 * Slack wrote in a `<@U123|name>` mention of that user in the channel (join notices carry one), else
 * the user id. Mentions `<@U123>` are rewritten to `@Name` when the name is known (the only change to the
 * text). Join/leave/bot-membership notices are skipped; everything else (bot messages, file
 * shares, thread broadcasts) is kept. All messages have role `user` (human chat: `turn-pairs`).
 */
import { basename, dirname } from 'node:path';
import type { Conversation, ConvoMessage, ParseOptions } from './types.js';
import { isObj, isoFromSeconds, resolveOptions, str, Warnings, type Json, type Resolved } from './util.js';

const SKIP_SUBTYPES = new Set([
  'channel_join',
  'channel_leave',
  'group_join',
  'group_leave',
  'bot_add',
  'bot_remove',
  'channel_archive',
  'channel_unarchive',
]);

/** Builds a user-id → name map from the text of `users.json` (real name, else display name, else name). */
export function slackUsersFromJson(content: string): Record<string, string> {
  const out: Record<string, string> = {};
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return out;
  }
  if (!Array.isArray(data)) return out;
  for (const u of data) {
    if (!isObj(u) || !str(u.id)) continue;
    const p = isObj(u.profile) ? u.profile : {};
    const name = str(u.real_name) ?? str(p.real_name) ?? str(p.display_name) ?? str(u.name);
    if (name) out[str(u.id)!] = name;
  }
  return out;
}

const MENTION_LABEL = /<@([A-Z0-9]+)\|([^>|]+)>/g;

function speakerOf(m: Json, o: Resolved): string {
  const prof = isObj(m.user_profile) ? m.user_profile : {};
  const id = str(m.user) ?? str(m.bot_id);
  return (
    str(prof.real_name) ??
    str(prof.display_name) ??
    (id ? o.resolveSlackUser?.(id) : undefined) ??
    str(m.user_name) ??
    str(m.username) ??
    id ??
    'unknown'
  );
}

function fileLines(m: Json): string[] {
  const files = Array.isArray(m.files) ? m.files : [];
  return files.filter(isObj).map((f) => `[file ${str(f.name) ?? str(f.title) ?? 'attachment'}]`);
}

/** One day file of a channel: its name (`YYYY-MM-DD.json`) and text. */
export interface SlackDayFile {
  name: string;
  content: string;
}

/**
 * Parses every day file of one Slack channel folder (`dir` is the folder path; it names the channel
 * and is the base of each conversation's `source`). See the module comment for the grouping.
 */
export function parseSlackChannel(
  dir: string,
  files: readonly SlackDayFile[],
  opts?: ParseOptions,
): { conversations: Conversation[]; warnings: string[] } {
  const o = resolveOptions(opts);
  const w = new Warnings(o.maxWarnings);
  const channel = basename(dir);
  const all: { m: Json; day: string }[] = [];
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    let data: unknown;
    try {
      data = JSON.parse(f.content);
    } catch {
      w.add(`${f.name}: not valid JSON, skipped`);
      continue;
    }
    if (!Array.isArray(data)) {
      w.add(`${f.name}: not an array of messages, skipped`);
      continue;
    }
    const day = basename(f.name).replace(/\.json$/, '');
    for (const m of data) if (isObj(m)) all.push({ m, day });
  }
  const names = new Map<string, string>();
  const convs = new Map<string, Conversation>();
  const rendered: { key: string; msg: ConvoMessage; ts: number }[] = [];
  // Labels of `<@U123|name>` mentions (join notices carry them): the names of an export without users.json.
  const labels = new Map<string, string>();
  for (const { m } of all) {
    const id = str(m.user);
    const name = id ? speakerOf(m, o) : undefined;
    if (id && name && name !== id) names.set(id, name);
    if (typeof m.text === 'string' && m.text.includes('|'))
      for (const [, uid, label] of m.text.matchAll(MENTION_LABEL)) if (!labels.has(uid!)) labels.set(uid!, label!);
  }
  for (const [uid, label] of labels) if (!names.has(uid) && !o.resolveSlackUser?.(uid)) names.set(uid, label);
  for (const { m, day } of all) {
    if (m.type !== undefined && m.type !== 'message') continue;
    const subtype = str(m.subtype);
    if (subtype && SKIP_SUBTYPES.has(subtype)) continue;
    const tsRaw = str(m.ts) ?? '';
    const ts = Number(tsRaw);
    let text = typeof m.text === 'string' ? m.text : '';
    text = text.replace(/<@([A-Z0-9]+)(?:\|([^>]*))?>/g, (all0, uid: string, label?: string) => {
      const n = names.get(uid) ?? o.resolveSlackUser?.(uid) ?? label;
      return n ? `@${n}` : all0;
    });
    text = [text.trim(), ...fileLines(m)].filter(Boolean).join('\n');
    if (!text) continue;
    const thread = str(m.thread_ts);
    const key = thread ? `slack:${channel}:${thread}` : `slack:${channel}:${day}`;
    const speaker = speakerOf(m, o);
    const msg: ConvoMessage = {
      role: 'user',
      speaker: speaker === str(m.user) ? (names.get(speaker) ?? speaker) : speaker,
      text,
      timestamp: isoFromSeconds(tsRaw),
      ...(tsRaw ? { uuid: tsRaw } : {}),
      kind: 'message',
    };
    rendered.push({ key, msg, ts: Number.isFinite(ts) ? ts : 0 });
  }
  rendered.sort((a, b) => a.ts - b.ts);
  for (const { key, msg } of rendered) {
    let c = convs.get(key);
    if (!c) {
      const threadTs =
        key.startsWith(`slack:${channel}:`) && /^\d+\.\d+$/.test(key.slice(`slack:${channel}:`.length))
          ? key.slice(`slack:${channel}:`.length)
          : null;
      c = {
        format: 'slack',
        id: key,
        title: threadTs ? null : `#${channel} ${key.slice(`slack:${channel}:`.length)}`,
        source: `${dir}#${key}`,
        file: dir,
        cwd: null,
        gitBranch: null,
        startedAt: msg.timestamp,
        messages: [],
        exchangeMode: 'turn-pairs',
        meta: { slackChannel: channel, ...(threadTs ? { threadTs } : {}) },
      };
      convs.set(key, c);
    }
    c.messages.push(msg);
  }
  for (const c of convs.values()) {
    if (c.meta.threadTs && c.title === null)
      c.title = `#${channel} thread: ${c.messages[0]!.text.split('\n')[0]!.slice(0, 80)}`;
  }
  return { conversations: [...convs.values()], warnings: w.finish() };
}

/** `parseConversations` entry: one day file parsed as a one-file channel (the folder names the channel). */
export function parseSlackDay(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const r = parseSlackChannel(dirname(path), [{ name: basename(path), content }], { ...o, maxWarnings: o.maxWarnings });
  for (const x of r.warnings) w.add(x);
  return r.conversations;
}
