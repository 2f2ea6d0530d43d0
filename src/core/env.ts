/**
 * @module core/env
 * The environment: the one module of Loci that reads environment variables. Every variable is read
 * here into {@link LociSettings} (typed, documented); everything else is given settings or calls
 * {@link readSettings} on the environment it was handed (tests pass their own). It also resolves
 * the Loci home folder, which is a setting (`--home` > `LOCI_HOME` > `~/.loci`).
 *
 * Kept dependency-free (node built-ins only) and small: hooks and `loci search` load it at start.
 *
 * | variable | setting | meaning | default |
 * | --- | --- | --- | --- |
 * | `LOCI_HOME` | `home` | the palace folder (`--home` wins) | `~/.loci` |
 * | `LOCI_DEBUG` | `debug` | any value: print the stack of an unexpected CLI error | off |
 * | `LOCI_DATABASE_URL` | `databaseUrl` | `postgres://…`: a PostgreSQL palace (`--database-url` wins) | SQLite |
 * | `LOCI_BUSY_TIMEOUT_MS` | `busyTimeoutMs` | how long a write waits for another process, ms (> 0) | 15000 |
 * | `LOCI_PG_POOL` | `pgPoolSize` | connections to a PostgreSQL palace (1 … 200) | 4; `loci serve` 16 |
 * | `LOCI_KG_EXTRACT` | `extractGraph` | `0`: do not extract facts from new drawers | on |
 * | `LOCI_USER_NAME` | `userName` | who "I" is in `user:` turns (graph extraction) | the OS user name |
 * | `LOCI_EMBEDDER` | `embedder` | `none`, `hash`, `ollama:<model>`, `openai:<model>[@dims]`, `onnx:<dir>` | `none` |
 * | `LOCI_EMBED_BASE_URL` | `embedBaseUrl` | base URL of the embedding service | the provider's |
 * | `LOCI_EMBED_BATCH_SIZE` | `embedBatchSize` | texts per embedding request | the embedder's |
 * | `LOCI_EMBED_QUERY_PREFIX` | `embedQueryPrefix` | text put before each query | the model's |
 * | `LOCI_EMBED_DOCUMENT_PREFIX` | `embedDocumentPrefix` | text put before each document | the model's |
 * | `LOCI_EMBED_API_KEY` | `embedApiKey` | key of an OpenAI-compatible embedding service | `OPENAI_API_KEY` |
 * | `LOCI_LLM_PROVIDER` | `llmProvider` | `anthropic`, `openai`, `ollama` or `none`: the LLM for recall | none |
 * | `LOCI_LLM_MODEL` | `llmModel` | its model | the provider's |
 * | `LOCI_LLM_BASE_URL` | `llmBaseUrl` | its base URL | the provider's |
 * | `LOCI_LLM_API_KEY` | `llmApiKey` | its key | the provider's variable below |
 * | `LOCI_LLM_TIMEOUT_MS` | `llmTimeoutMs` | per-request timeout, ms (1 … 600000) | the provider's |
 * | `ANTHROPIC_API_KEY` | `anthropicApiKey` | key of the `anthropic` provider | none |
 * | `OPENAI_API_KEY` | `openaiApiKey` | key of the `openai` provider and embedder | none |
 * | `LOCI_MINE_ROOTS` | `mineRoots` | folders MCP callers may mine (path-list separator) | project + Claude dir |
 * | `LOCI_MCP_ALLOWED_ORIGINS` | `mcpAllowedOrigins` | extra browser origins of `loci mcp --http` (`a,b`) | none |
 * | `LOCI_MCP_IDLE_SECONDS` | `mcpIdleSeconds` | idle session timeout of `loci mcp --http`, s | 300 |
 * | `LOCI_TOKEN` | `token` | token `loci mcp --http` requires; team server token (remote mode) | `''` (none) |
 * | `LOCI_SERVER` | `server` | team server URL: the CLI runs search/get/add/kg/mine/memory sync there | none (local) |
 * | `LOCI_HOOK_DEBUG` | `hookDebug` | `1`: hooks log at debug level | off |
 * | `LOCI_HOOK_NUDGE` | `hookNudge` | `1`: the Stop hook adds a save nudge | off |
 * | `LOCI_HOOK_SAVE_EVERY` | `hookSaveEvery` | prompts between archive runs (1 … 10000; else default) | 15 |
 * | `LOCI_HOOK_WORKER` | `hookWorker` | `0`: hooks never spawn the archive worker | on |
 * | `LOCI_HOOK_SERVER` | `hookServer` | `0`: hooks never use the warm server | on |
 * | `LOCI_EXTRACT_ON_END` | `extractOnEnd` | `1`: hooks also extract memories (needs an LLM) | off |
 * | `LOCI_SESSION_NOTES` | `sessionNotes` | `0`: hooks keep no running session notes | on |
 * | `LOCI_HOOK_SERVER_IDLE_MS` | `hookServerIdleMs` | idle time before the warm server exits, ms | the server's |
 * | `LOCI_DREAM_AUTO` | `dreamAuto` | `1`: the hook worker consolidates memory when its gates open | off |
 * | `NO_COLOR` | `noColor` | any value: no colours in CLI output | colours on a terminal |
 * | `CLAUDE_PROJECT_DIR` | `claudeProjectDir` | the project Claude Code runs in (MCP, hooks) | the cwd |
 * | `CLAUDE_CONFIG_DIR` | `claudeConfigDir` | Claude Code's configuration folder | `~/.claude` |
 * | `CLAUDE_CODE_DISABLE_AUTO_MEMORY` | `claudeAutoMemoryDisabled` | set (not `0`/`false`): no memory folder | off |
 * | `CLAUDE_CODE_PROJECT_DIR_NAME` | `claudeProjectDirName` | pinned project folder name under `projects/` | derived |
 * | `HOME` | `userHome` | the user's home folder | `os.homedir()` |
 * | `USERPROFILE` | `userProfile` | the user's home folder on Windows | `os.homedir()` |
 * | `PATH` | `path` | where `loci` is looked up (installers) | `''` |
 * | `PATHEXT` | `pathExt` | executable extensions on Windows | `.EXE;.CMD` |
 *
 * String settings are the raw value (`undefined` when unset) when their reader validates them with
 * its own message; flags and plain numbers are parsed here.
 */
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/** A set of environment variables: the process's ({@link processEnv}) or one a caller or test passes. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The process's environment. The only place Loci touches `process.env`. */
export function processEnv(): Env {
  return process.env;
}

/** Every environment variable Loci reads, typed (see the module's table for meaning and default). */
export interface LociSettings {
  /** `LOCI_HOME` (raw; see {@link resolveHome}). */
  readonly home: string | undefined;
  /** `LOCI_DEBUG` set to anything non-empty. */
  readonly debug: boolean;
  /** `LOCI_DATABASE_URL` when non-empty (raw; checked when the palace opens). */
  readonly databaseUrl: string | undefined;
  /** `LOCI_BUSY_TIMEOUT_MS` when a number > 0, else undefined (the default, 15000, is the store's). */
  readonly busyTimeoutMs: number | undefined;
  /** `LOCI_PG_POOL` when an integer from 1 to 200, else undefined (the caller's default). */
  readonly pgPoolSize: number | undefined;
  /** `LOCI_KG_EXTRACT` is not `0`. */
  readonly extractGraph: boolean;
  /** `LOCI_USER_NAME` when non-empty. */
  readonly userName: string | undefined;
  /** `LOCI_EMBEDDER` (raw). */
  readonly embedder: string | undefined;
  /** `LOCI_EMBED_BASE_URL` (raw). */
  readonly embedBaseUrl: string | undefined;
  /** `LOCI_EMBED_BATCH_SIZE` (raw; validated by the embedder configuration). */
  readonly embedBatchSize: string | undefined;
  /** `LOCI_EMBED_QUERY_PREFIX` (raw: spaces matter). */
  readonly embedQueryPrefix: string | undefined;
  /** `LOCI_EMBED_DOCUMENT_PREFIX` (raw: spaces matter). */
  readonly embedDocumentPrefix: string | undefined;
  /** `LOCI_EMBED_API_KEY` (raw). */
  readonly embedApiKey: string | undefined;
  /** `LOCI_LLM_PROVIDER` (raw; validated by the provider factory). */
  readonly llmProvider: string | undefined;
  /** `LOCI_LLM_MODEL` (raw). */
  readonly llmModel: string | undefined;
  /** `LOCI_LLM_BASE_URL` (raw). */
  readonly llmBaseUrl: string | undefined;
  /** `LOCI_LLM_API_KEY` (raw). */
  readonly llmApiKey: string | undefined;
  /** `LOCI_LLM_TIMEOUT_MS` (raw; validated by the provider factory). */
  readonly llmTimeoutMs: string | undefined;
  /** `ANTHROPIC_API_KEY` (raw). */
  readonly anthropicApiKey: string | undefined;
  /** `OPENAI_API_KEY` (raw). */
  readonly openaiApiKey: string | undefined;
  /** `LOCI_MINE_ROOTS` split on the path-list separator, trimmed, empty parts dropped. */
  readonly mineRoots: readonly string[];
  /** `LOCI_MCP_ALLOWED_ORIGINS` split on commas, trimmed, empty parts dropped. */
  readonly mcpAllowedOrigins: readonly string[];
  /** `LOCI_MCP_IDLE_SECONDS` (raw; validated by `loci mcp`). */
  readonly mcpIdleSeconds: string | undefined;
  /** `LOCI_TOKEN`, `''` when unset. */
  readonly token: string;
  /** `LOCI_SERVER` trimmed, undefined when unset or empty (team server: remote mode). */
  readonly server: string | undefined;
  /** `LOCI_HOOK_DEBUG` is `1`. */
  readonly hookDebug: boolean;
  /** `LOCI_HOOK_NUDGE` is `1`. */
  readonly hookNudge: boolean;
  /** `LOCI_HOOK_SAVE_EVERY` as an integer in 1 … 10000, else 15. */
  readonly hookSaveEvery: number;
  /** `LOCI_HOOK_WORKER` is not `0`. */
  readonly hookWorker: boolean;
  /** `LOCI_HOOK_SERVER` is not `0`. */
  readonly hookServer: boolean;
  /** `LOCI_EXTRACT_ON_END` is `1` (memory extraction from the hooks; used only when an LLM is configured). */
  readonly extractOnEnd: boolean;
  /** `LOCI_SESSION_NOTES` is not `0` (running session notes kept by the hook worker). */
  readonly sessionNotes: boolean;
  /** `LOCI_HOOK_SERVER_IDLE_MS` as a number (NaN when unset or not a number; the server clamps it). */
  readonly hookServerIdleMs: number;
  /** `LOCI_DREAM_AUTO=1`: the hook worker runs memory consolidation (`loci dream`, gated). */
  readonly dreamAuto: boolean;
  /** `NO_COLOR` set to anything non-empty. */
  readonly noColor: boolean;
  /** `CLAUDE_PROJECT_DIR` (raw). */
  readonly claudeProjectDir: string | undefined;
  /** `CLAUDE_CONFIG_DIR` (raw: readers differ on an empty value, so they decide). */
  readonly claudeConfigDir: string | undefined;
  /** `CLAUDE_CODE_DISABLE_AUTO_MEMORY` set to anything but ``, `0` or `false` (any case). */
  readonly claudeAutoMemoryDisabled: boolean;
  /** `CLAUDE_CODE_PROJECT_DIR_NAME` (raw; validated by the memory-folder resolver). */
  readonly claudeProjectDirName: string | undefined;
  /** `HOME` (raw). */
  readonly userHome: string | undefined;
  /** `USERPROFILE` (raw). */
  readonly userProfile: string | undefined;
  /** `PATH`, `''` when unset. */
  readonly path: string;
  /** `PATHEXT` (raw). */
  readonly pathExt: string | undefined;
}

/** Default of `LOCI_HOOK_SAVE_EVERY`: human prompts between two archive checkpoints of the hooks. */
export const HOOK_SAVE_EVERY_DEFAULT = 15;

const list = (raw: string | undefined, sep: string): string[] =>
  (raw ?? '')
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);

/** `raw` as an integer from `min` to `max`, else undefined. */
function intIn(raw: string | undefined, min: number, max: number): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** Reads every setting from `env` (default: the process's environment). Cheap; call it where needed. */
export function readSettings(env: Env = process.env): LociSettings {
  const busy = Number(env['LOCI_BUSY_TIMEOUT_MS']);
  const every = Number(env['LOCI_HOOK_SAVE_EVERY']);
  const noMemory = env['CLAUDE_CODE_DISABLE_AUTO_MEMORY'];
  return {
    home: env['LOCI_HOME'],
    debug: !!env['LOCI_DEBUG'],
    databaseUrl: env['LOCI_DATABASE_URL'] || undefined,
    busyTimeoutMs: busy > 0 ? busy : undefined,
    pgPoolSize: intIn(env['LOCI_PG_POOL'], 1, 200),
    extractGraph: env['LOCI_KG_EXTRACT'] !== '0',
    userName: env['LOCI_USER_NAME'] || undefined,
    embedder: env['LOCI_EMBEDDER'],
    embedBaseUrl: env['LOCI_EMBED_BASE_URL'],
    embedBatchSize: env['LOCI_EMBED_BATCH_SIZE'],
    embedQueryPrefix: env['LOCI_EMBED_QUERY_PREFIX'],
    embedDocumentPrefix: env['LOCI_EMBED_DOCUMENT_PREFIX'],
    embedApiKey: env['LOCI_EMBED_API_KEY'],
    llmProvider: env['LOCI_LLM_PROVIDER'],
    llmModel: env['LOCI_LLM_MODEL'],
    llmBaseUrl: env['LOCI_LLM_BASE_URL'],
    llmApiKey: env['LOCI_LLM_API_KEY'],
    llmTimeoutMs: env['LOCI_LLM_TIMEOUT_MS'],
    anthropicApiKey: env['ANTHROPIC_API_KEY'],
    openaiApiKey: env['OPENAI_API_KEY'],
    mineRoots: list(env['LOCI_MINE_ROOTS'], delimiter),
    mcpAllowedOrigins: list(env['LOCI_MCP_ALLOWED_ORIGINS'], ','),
    mcpIdleSeconds: env['LOCI_MCP_IDLE_SECONDS'],
    token: env['LOCI_TOKEN'] ?? '',
    server: env['LOCI_SERVER']?.trim() || undefined,
    hookDebug: env['LOCI_HOOK_DEBUG'] === '1',
    hookNudge: env['LOCI_HOOK_NUDGE'] === '1',
    hookSaveEvery: Number.isInteger(every) && every >= 1 && every <= 10_000 ? every : HOOK_SAVE_EVERY_DEFAULT,
    hookWorker: env['LOCI_HOOK_WORKER'] !== '0',
    hookServer: env['LOCI_HOOK_SERVER'] !== '0',
    extractOnEnd: env['LOCI_EXTRACT_ON_END'] === '1',
    sessionNotes: env['LOCI_SESSION_NOTES'] !== '0',
    hookServerIdleMs: Number(env['LOCI_HOOK_SERVER_IDLE_MS']),
    dreamAuto: env['LOCI_DREAM_AUTO'] === '1',
    noColor: !!env['NO_COLOR'],
    claudeProjectDir: env['CLAUDE_PROJECT_DIR'],
    claudeConfigDir: env['CLAUDE_CONFIG_DIR'],
    claudeAutoMemoryDisabled: !!noMemory && noMemory !== '0' && noMemory.toLowerCase() !== 'false',
    claudeProjectDirName: env['CLAUDE_CODE_PROJECT_DIR_NAME'],
    userHome: env['HOME'],
    userProfile: env['USERPROFILE'],
    path: env['PATH'] ?? '',
    pathExt: env['PATHEXT'],
  };
}

/** Resolves the Loci home folder (absolute): `explicit` > `LOCI_HOME` > `~/.loci`. Does not create it. */
export function resolveHome(explicit?: string, env: Env = process.env): string {
  const raw = explicit || env['LOCI_HOME'] || join(homedir(), '.loci');
  return resolve(raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : raw);
}

/** Standard paths inside a home. */
export function homePaths(home: string) {
  return {
    home,
    db: join(home, 'palace.db'),
    config: join(home, 'config.json'),
    logs: join(home, 'logs'),
    locks: join(home, 'locks'),
    queue: join(home, 'queue'),
    projects: join(home, 'projects'),
    models: join(home, 'models'),
  } as const;
}
