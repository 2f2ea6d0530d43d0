/**
 * @module hooks
 * Claude Code hooks, the archive worker, the warm hook server and `loci hooks install`: the only
 * door of `src/hooks/` (the wake-up itself is the `wakeup` capability), published as the
 * `loci/hooks` subpath. Importing it is cheap — modules that need the library (worker, install, the
 * recall and wake-up answers, the server) are loaded by the first call (dynamic `import()`).
 * The process entry Claude Code runs is `main.ts`. See ARCHITECTURE.md here.
 */
import type { HooksInstallOptions, HooksInstallResult } from './install.js';
import type { HookWorkerOptions, HookWorkerSummary } from './worker.js';
import type { RunHookOptions } from './run.js';
import type { HookActivity } from './activity.js';

export {
  HOOK_EVENTS,
  HOOK_EVENT_NAMES,
  HOOK_OUTPUT_CHARS,
  isTrivialPrompt,
  parseHookInput,
  type HookEvent,
  type HookInput,
} from './protocol.js';
export { isHumanPrompt, countHumanPrompts, type PromptCount } from './transcript.js';
export type { HookActivity, HookLogLine } from './activity.js';
export type { RunHookOptions } from './run.js';
export type { HookWorkerOptions, HookWorkerSummary } from './worker.js';
export type { HooksInstallOptions, HooksInstallResult, HooksInstallScope, HookHandler } from './install.js';

/**
 * Runs one Claude Code hook: parses `stdin` (the hook JSON), does the event's work, and returns
 * the text for stdout ('' for none). Never throws: errors are logged to
 * `<LOCI_HOME>/logs/hooks.log` and answered with ''. See `run.ts` for the answer of each event.
 */
export async function runHook(event: string, stdin: string, opts: RunHookOptions = {}): Promise<string> {
  return (await import('./run.js')).runHook(event, stdin, opts);
}

/** Drains the archive queue under the worker lock (`loci hook-worker`); `busy` when another worker runs. */
export async function runHookWorker(opts: HookWorkerOptions): Promise<HookWorkerSummary> {
  return (await import('./worker.js')).runHookWorker(opts);
}

/** Merges (or with `uninstall` removes) Loci's hook handlers in a Claude Code settings file. */
export async function installHooks(opts: HooksInstallOptions = {}): Promise<HooksInstallResult> {
  return (await import('./install.js')).installHooks(opts);
}

/** The hook log's latest lines (newest first, at most `limit`), the archive queue and the worker lock (`loci ui`). */
export async function hookActivity(home: string, limit?: number): Promise<HookActivity> {
  return (await import('./activity.js')).hookActivity(home, limit);
}
