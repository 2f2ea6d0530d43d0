/**
 * @module cli/commands/recall
 * `loci recall "<query>"`: prints exactly what recall would inject for a prompt (one
 * `<system-reminder>` block, or nothing), from the memory directory `loci memory` uses. Search
 * selects unless `--llm` is given or `LOCI_LLM_PROVIDER` is set; `--with-drawers` adds palace
 * drawers as the user-prompt-submit hook does (≤ 10,000 characters).
 */
import {
  buildPromptContext,
  buildRecall,
  createError,
  isLociError,
  loadRecallSession,
  openPalace,
  providerFromEnv,
  recordSurfaced,
  resolveHome,
  selectMemoryDir,
  type LlmProvider,
  type PromptContext,
  type RecallResult,
  type RecallSessionState,
} from '../../internal.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { intOption, printJson } from '../format.js';

interface RecallCliOptions {
  json?: boolean;
  dir?: string;
  claude?: boolean;
  user?: boolean;
  session?: string;
  record?: boolean;
  llm?: boolean;
  withDrawers?: boolean;
  maxChars?: string;
  timeout?: string;
}

/**
 * The provider to use: `--llm` requires a working one; otherwise only an explicit
 * `LOCI_LLM_PROVIDER`, and a misconfigured one is reported on stderr while search selects.
 */
function provider(ctx: CliContext, o: RecallCliOptions): LlmProvider | undefined {
  let p: LlmProvider | undefined;
  try {
    p = providerFromEnv(ctx.io.env);
  } catch (e) {
    if (o.llm || !isLociError(e)) throw e;
    ctx.io.stderr(
      `loci: recall: the LLM provider from LOCI_LLM_PROVIDER cannot be used (${e.message}); selecting with search\n`,
    );
    return undefined;
  }
  if (o.llm && !p) throw createError('RECALL_PROVIDER_MISSING', { flag: '--llm' });
  return p;
}

function toJson(r: RecallResult | PromptContext, dir: string, kind: string) {
  return {
    memories: r.memories.map((m) => ({
      file: m.file,
      type: m.type,
      name: m.name,
      age_days: m.age_days,
      bytes: m.bytes,
      truncated: m.truncated,
      description: m.description,
      modified: m.modified,
      path: m.path,
    })),
    ...('drawers' in r ? { drawers: r.drawers, chars: r.chars } : {}),
    text: r.text,
    selector: r.selector,
    bytes: r.bytes,
    omitted: r.omitted,
    ...(r.reason ? { reason: r.reason } : {}),
    dir,
    kind,
  };
}

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('recall')
    .description('print what recall would inject for a prompt (memory files, optionally palace drawers)')
    .argument('<query...>', 'the prompt to recall for')
    .option('--json', 'print {"memories":[…], "text", "selector", …} as JSON')
    .option('--dir <dir>', 'recall from this memory directory')
    .option('--claude', "use Claude Code's memory directory even if it does not exist yet")
    .option('--user', 'use the user-level memories')
    .option('--session <id>', "apply this session's state: skip memories already surfaced, count its byte budget")
    .option('--record', 'with --session: record the injection in the session state (as a hook does)')
    .option('--llm', 'select with the LLM configured by LOCI_LLM_PROVIDER (fails when none is)')
    .option('--with-drawers', 'also inject the top palace drawers, as the user-prompt-submit hook does')
    .option('--max-chars <n>', 'with --with-drawers: most characters of the text (default 10000)')
    .option('--timeout <ms>', 'time allowed to the LLM selector before search takes over (default 8000)')
    .action(async (words: string[], o: RecallCliOptions) => {
      const query = words.join(' ');
      if (query.trim() === '')
        throw createError('INVALID_ARGUMENT', { name: 'query', value: query, expected: 'a non-empty prompt' });
      if (o.record && !o.session)
        throw createError('INVALID_ARGUMENT', { name: '--record', value: true, expected: '--session ID as well' });
      const home = resolveHome(ctx.globals().home, ctx.io.env);
      const choice = selectMemoryDir({
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        lociHome: home,
        ...(o.dir !== undefined ? { dir: o.dir } : {}),
        ...(o.claude ? { claude: true } : {}),
        ...(o.user ? { user: true } : {}),
      });
      const timeoutMs = intOption('--timeout', o.timeout, 8_000, 1, 600_000);
      const llm = provider(ctx, o);
      const session: RecallSessionState | undefined = o.session ? loadRecallSession(home, o.session) : undefined;
      const common = { provider: llm, session, timeoutMs };
      let result: RecallResult | PromptContext;
      if (o.withDrawers) {
        const maxChars = intOption('--max-chars', o.maxChars, 10_000, 200, 1_000_000);
        const palace = await openPalace({ home, env: ctx.io.env });
        try {
          // As the user-prompt-submit hook: the project's wing (+ tunnels), user memories, no wrapper.
          result = await buildPromptContext({
            ...common,
            query,
            memoryDir: choice.dir,
            palace,
            maxChars,
            project: ctx.io.cwd,
            userMemoryDir: choice.userDir,
            wrap: false,
          });
        } finally {
          await palace.close();
        }
      } else {
        result = await buildRecall(query, { ...common, dir: choice.dir });
      }
      if (o.record && o.session && result.text) {
        recordSurfaced(home, o.session, {
          files: result.memories.map((m) => m.file),
          drawers: 'drawers' in result ? result.drawers.map((d) => d.id) : [],
          bytes: result.bytes,
        });
      }
      if (o.json) return printJson(ctx.io, toJson(result, choice.dir, choice.kind));
      if (result.text) ctx.io.stdout(`${result.text}\n`);
      if (result.reason || !result.text) {
        ctx.io.stderr(
          `loci: recall (${result.selector}): ${result.reason ?? 'nothing to inject'}` +
            `${result.text ? '' : ` — nothing injected from ${choice.dir}`}\n`,
        );
      }
    });
};
