/**
 * @module ingest/convos-miner/claude-dirs
 * Where Claude Code keeps transcripts: the configuration folder (`$CLAUDE_CONFIG_DIR`, else
 * `~/.claude`) and the transcript files under it. No parsing here (cheap to load).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createError } from '../../core/errors.js';
import { processEnv, readSettings, type Env } from '../../core/env.js';

/** The Claude Code configuration folder: `dir`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(dir?: string, env: Env = processEnv()): string {
  const s = readSettings(env);
  return resolve(dir ?? s.claudeConfigDir ?? join(s.userHome ?? homedir(), '.claude'));
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Every Claude Code transcript under a configuration folder: `projects/<project>/*.jsonl`
 * (sessions, and older `agent-<id>.jsonl` files beside them), `projects/<project>/<session>/
 * subagents/*.jsonl`, and `history.jsonl`. Sorted. Throws CLAUDE_DIR_NOT_FOUND when the folder
 * holds neither `projects/` nor `history.jsonl`.
 */
export function discoverClaudeFiles(configDir: string): string[] {
  const projects = join(configDir, 'projects');
  const history = join(configDir, 'history.jsonl');
  if (!existsSync(projects) && !existsSync(history)) throw createError('CLAUDE_DIR_NOT_FOUND', { path: configDir });
  const out: string[] = [];
  for (const p of list(projects)) {
    const pdir = join(projects, p);
    for (const name of list(pdir)) {
      const full = join(pdir, name);
      if (name.endsWith('.jsonl')) {
        if (isFile(full)) out.push(full);
        continue;
      }
      for (const sub of list(join(full, 'subagents'))) {
        const s = join(full, 'subagents', sub);
        if (sub.endsWith('.jsonl') && isFile(s)) out.push(s);
      }
    }
  }
  if (isFile(history)) out.push(history);
  return out.sort();
}
