/**
 * @module cli/commands/extract
 * `loci extract`: proposes memories from the new part of a session and writes them into the memory
 * folder `loci memory` uses (Claude Code's when it is in use), or shows them as a diff with
 * `--dry-run`. With `LOCI_LLM_PROVIDER` set a model proposes; without one only the explicit cases
 * ("remember that…", "from now on…", "don't … again") are taken, and the output says so.
 * `loci notes`: brings the running notes of a session up to date (or prints them).
 */
import {
  claudeConfigDir,
  claudeSessionSummary,
  createError,
  extractForProject,
  findSessionTranscript,
  latestSessionTranscript,
  providerFromEnv,
  readSession,
  readSessionNotes,
  resolveHome,
  updateSessionNotes,
  type ExtractResult,
  type LlmProvider,
} from '../../internal.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { colors, intOption, printJson } from '../format.js';

interface SessionOptions {
  session?: string;
  transcript?: string;
  json?: boolean;
  explicit?: boolean;
  timeout?: string;
}

interface ExtractCliOptions extends SessionOptions {
  dir?: string;
  claude?: boolean;
  dryRun?: boolean;
  all?: boolean;
  maxCalls?: string;
}

function transcriptOf(ctx: CliContext, o: SessionOptions): string {
  if (o.transcript) return o.transcript;
  const config = claudeConfigDir(undefined, ctx.io.env);
  if (o.session) return findSessionTranscript(o.session, config);
  const latest = latestSessionTranscript(ctx.io.cwd, config);
  if (!latest) {
    throw createError('INVALID_ARGUMENT', {
      name: '--session',
      value: undefined,
      expected: `a session id or --transcript FILE (no Claude Code session of ${ctx.io.cwd} under ${config})`,
    });
  }
  return latest;
}

function providerOf(ctx: CliContext, o: SessionOptions): LlmProvider | undefined {
  return o.explicit ? undefined : providerFromEnv(ctx.io.env);
}

const NO_MODEL =
  'no model configured (LOCI_LLM_PROVIDER): explicit cases only — "remember that…", "from now on…", ' +
  '"don\'t … again", "always/never …"';

function printResult(ctx: CliContext, r: ExtractResult, kind: string, dryRun: boolean, model: string): void {
  const c = colors(ctx.io);
  const out = (s: string) => ctx.io.stdout(s);
  out(
    `session ${r.sessionId}: read turns ${r.turns.from}–${r.turns.to} of ${r.turns.total}` +
      (r.turns.to < r.turns.total ? ` (the rest on the next run)` : '') +
      '\n',
  );
  out(`${r.mode === 'model' ? `model: ${model}, ${r.calls} call(s)` : NO_MODEL}\n`);
  out(`memory folder: ${r.dir} (${kind})\n`);
  if (r.proposals.length === 0) out(`nothing to remember${r.turns.from === r.turns.to ? ' (nothing new)' : ''}\n`);
  for (const p of r.proposals) {
    const mark = p.action === 'add' ? c.green('+ add   ') : c.yellow('~ update');
    out(`${mark} ${p.type.padEnd(9)} ${p.file} — ${p.description}\n${c.dim(`           why: ${p.reason}`)}\n`);
  }
  for (const s of r.skipped) out(c.dim(`- skip   ${s.type.padEnd(9)} ${s.name}: ${s.reason} [${s.rule}]\n`));
  if (dryRun) {
    out(c.dim('dry run: nothing written. The changes:\n'));
    if (r.diff) out(r.diff);
  } else if (r.index) {
    out(`MEMORY.md: ${r.index.entries} entries, ${r.index.lines} lines (limits 200 lines / 25 KB)\n`);
  }
}

const EXTRACTIVE = 'built without a model (extractive: files, commands, errors, prompts)';

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('extract')
    .description('propose memories from the new part of a session and write them (or --dry-run to see the diff)')
    .option('--session <id>', 'a Claude Code session id (default: the newest session of this folder)')
    .option('--transcript <file>', 'a transcript file (any format `loci mine` reads)')
    .option('--dir <dir>', 'write into this memory folder')
    .option('--claude', "use Claude Code's memory folder even if it does not exist yet")
    .option('--dry-run', 'show the proposed changes as a diff; write nothing')
    .option('--all', 'read the whole session again, not only what is new since the last run')
    .option('--explicit', 'do not use the model: explicit cases only')
    .option('--max-calls <n>', 'model calls at most (default 12; the rest of a long session waits for the next run)')
    .option('--timeout <ms>', 'time allowed per model call, retries included (default: the provider’s)')
    .option('--json', 'print {"proposals":[{action,type,name,description,file,reason}], …} as JSON')
    .action(async (o: ExtractCliOptions) => {
      const home = resolveHome(ctx.globals().home, ctx.io.env);
      const provider = providerOf(ctx, o);
      const { result, choice } = await extractForProject({
        home,
        transcript: transcriptOf(ctx, o),
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        ...(provider ? { provider } : {}),
        ...(o.dir !== undefined ? { dir: o.dir } : {}),
        ...(o.claude ? { claude: true } : {}),
        ...(o.dryRun ? { dryRun: true } : {}),
        ...(o.all ? { all: true } : {}),
        ...(o.maxCalls !== undefined ? { maxCalls: intOption('--max-calls', o.maxCalls, 12, 1, 1000) } : {}),
        ...(o.timeout !== undefined ? { timeoutMs: intOption('--timeout', o.timeout, 20_000, 1, 600_000) } : {}),
      });
      if (o.json) {
        return printJson(ctx.io, {
          proposals: result.proposals,
          skipped: result.skipped,
          mode: result.mode,
          ...(result.mode === 'explicit' ? { note: NO_MODEL } : {}),
          session: result.sessionId,
          transcript: result.transcript,
          dir: result.dir,
          turns: result.turns,
          dryRun: !!o.dryRun,
          written: result.written,
          ...(o.dryRun ? { diff: result.diff } : {}),
        });
      }
      printResult(ctx, result, choice.kind, !!o.dryRun, provider ? `${provider.name}/${provider.model}` : '');
    });

  program
    .command('notes')
    .description('bring the running notes of a session up to date (thresholds: 10K tokens, then 5K + 3 tool calls)')
    .option('--session <id>', 'a Claude Code session id (default: the newest session of this folder)')
    .option('--transcript <file>', 'a transcript file')
    .option('--force', 'write the notes now, whatever the thresholds say')
    .option('--show', 'print the notes (Loci’s, else Claude Code’s own session-memory summary) without updating')
    .option('--explicit', 'do not use the model: extractive notes')
    .option('--timeout <ms>', 'time allowed per model call, retries included')
    .option('--json', 'print {updated, reason, mode, path, tokens, toolCalls, notes} as JSON')
    .action(async (o: SessionOptions & { force?: boolean; show?: boolean }) => {
      const home = resolveHome(ctx.globals().home, ctx.io.env);
      const transcript = transcriptOf(ctx, o);
      if (o.show) {
        const id = (await readSession(transcript)).sessionId;
        const notes = readSessionNotes(home, id) ?? claudeSessionSummary(transcript, id)?.text;
        if (o.json) return printJson(ctx.io, { session: id, notes: notes ?? null });
        ctx.io.stdout(notes ?? `no notes for session ${id} yet\n`);
        return;
      }
      const provider = providerOf(ctx, o);
      const r = await updateSessionNotes({
        home,
        transcript,
        ...(provider ? { provider } : {}),
        ...(o.force ? { force: true } : {}),
        ...(o.timeout !== undefined ? { timeoutMs: intOption('--timeout', o.timeout, 20_000, 1, 600_000) } : {}),
      });
      if (o.json) return printJson(ctx.io, r);
      ctx.io.stdout(
        `session ${r.sessionId}: ${r.updated ? 'notes updated' : 'notes unchanged'} — ${r.reason}\n` +
          (r.mode === 'model' ? 'written by the model' : EXTRACTIVE) +
          ` · ${r.tokens} tokens, ${r.toolCalls} tool calls · ${r.path}\n`,
      );
    });
};
