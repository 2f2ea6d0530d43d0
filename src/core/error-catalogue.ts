/**
 * @module core/error-catalogue
 * The closed catalogue of Loci's error codes ({@link ERRORS}): for each code, who can fix it (its
 * category), when it fires, the `details` it carries, and its one-line message saying what went
 * wrong, with which value, and how to fix it. The error class and helpers are in `core/errors.ts`,
 * the door every caller imports. The entries of the graph, the front ends and the providers are in
 * `core/error-catalogue-services.ts`.
 */
import { SERVICE_ERRORS } from './error-catalogue-services.js';
import { spec } from './error-spec.js';
export type { ErrorCategory, ErrorSpec } from './error-spec.js';

/** The entries of the generic, storage, search and memory-file capabilities. */
const BASE_ERRORS = {
  // ── generic ────────────────────────────────────────────────────────────────
  /** A function or command received a value it cannot use. details: name, value, expected. */
  INVALID_ARGUMENT: spec<{ name: string; value: unknown; expected: string }>(
    'user',
    (d) => `invalid ${d.name}: ${JSON.stringify(d.value)} — expected ${d.expected}`,
  ),
  /** An unexpected internal failure (a bug). details: what. */
  INTERNAL: spec<{ what: string }>(
    'system',
    (d) => `internal error: ${d.what} — please report it with the command you ran`,
  ),
  /** An operation was cancelled through an AbortSignal. details: operation. */
  ABORTED: spec<{ operation: string }>('user', (d) => `${d.operation} was cancelled`),
  /** An operation took longer than allowed. details: operation, ms. */
  TIMEOUT: spec<{ operation: string; ms: number }>(
    'dependency',
    (d) => `${d.operation} timed out after ${d.ms} ms — retry, or raise the timeout`,
  ),

  // ── command line ───────────────────────────────────────────────────────────
  /**
   * The command line does not parse: unknown command or option, missing or extra argument, missing
   * required option (commander's own checks). details: problem (commander's text), command (e.g. `loci diary read`).
   */
  CLI_USAGE: spec<{ problem: string; command: string }>(
    'user',
    (d) => `${d.problem} — run \`${d.command} --help\` for usage`,
  ),

  // ── home and files ─────────────────────────────────────────────────────────
  /** The Loci home cannot be created or written. details: path, reason. */
  HOME_UNAVAILABLE: spec<{ path: string; reason: string }>(
    'system',
    (d) =>
      `cannot use Loci home ${d.path}: ${d.reason} — fix its permissions, or choose another with --home DIR or ` +
      'LOCI_HOME',
  ),
  /** A path given by the user does not exist. details: path. */
  PATH_NOT_FOUND: spec<{ path: string }>('user', (d) => `no such file or directory: ${d.path} — check the path`),
  /** The OS refused access to a path. details: path, operation. */
  PERMISSION_DENIED: spec<{ path: string; operation: string }>(
    'system',
    (d) => `permission denied to ${d.operation} ${d.path} — fix its permissions (chmod/chown) or run as its owner`,
  ),
  /** A file could not be read for another reason. details: path, reason. */
  FILE_UNREADABLE: spec<{ path: string; reason: string }>('system', (d) => `cannot read ${d.path}: ${d.reason}`),
  /** A configuration file is not valid. details: path, reason. */
  CONFIG_INVALID: spec<{ path: string; reason: string }>(
    'user',
    (d) => `invalid configuration in ${d.path}: ${d.reason} — fix the file or delete it to use defaults`,
  ),

  // ── database ───────────────────────────────────────────────────────────────
  /** The palace database is damaged. details: path, reason. */
  DB_CORRUPT: spec<{ path: string; reason: string }>(
    'system',
    (d) =>
      `the palace database ${d.path} is damaged (${d.reason}) — move it aside and re-mine, or restore it from a ` +
      'backup; nothing was written',
  ),
  /** The file at the database path is not a Loci database. details: path. */
  DB_FOREIGN: spec<{ path: string }>(
    'user',
    (d) =>
      `${d.path} is not a Loci palace database (another application's file) — point --home/LOCI_HOME at another ` +
      'folder; the file was not touched',
  ),
  /** Another process held the database lock longer than the busy timeout. details: path, waitedMs. */
  DB_LOCKED: spec<{ path: string; waitedMs: number }>(
    'system',
    (d) =>
      `the palace database ${d.path} stayed locked by another process for ${d.waitedMs} ms — retry when the other ` +
      'Loci command has finished',
  ),
  /** The database was written by a newer Loci. details: path, version, supported. */
  DB_TOO_NEW: spec<{ path: string; version: number; supported: number }>(
    'user',
    (d) =>
      `the palace database ${d.path} has schema version ${d.version}, this Loci supports up to ${d.supported} — ` +
      'upgrade Loci',
  ),

  // ── PostgreSQL palace ──────────────────────────────────────────────────────
  /**
   * `--database-url` / `LOCI_DATABASE_URL` is not a usable PostgreSQL URL. details: url (password
   * hidden), reason.
   */
  PG_URL_INVALID: spec<{ url: string; reason: string }>(
    'user',
    (d) =>
      `invalid database URL ${d.url}: ${d.reason} — expected postgres://user[:password]@host[:port]/database` +
      '[?schema=name]',
  ),
  /**
   * Every pooled connection to the PostgreSQL palace stayed taken for the pool's wait (the team
   * server answers it 503 with Retry-After). details: url (password hidden), connections, seconds.
   */
  PG_BUSY: spec<{ url: string; connections: number; seconds: number }>(
    'system',
    (d) =>
      `every one of the ${d.connections} connections to the PostgreSQL palace at ${d.url} stayed busy for ` +
      `${d.seconds} s: the database is overloaded — retry shortly, or allow more connections (LOCI_PG_POOL)`,
  ),
  /**
   * The PostgreSQL server cannot be reached or refused the login, or the connection was lost.
   * details: url (password hidden), reason.
   */
  PG_UNREACHABLE: spec<{ url: string; reason: string }>(
    'dependency',
    (d) =>
      `cannot use the PostgreSQL palace at ${d.url}: ${d.reason} — check that the server runs and the URL ` +
      '(--database-url or LOCI_DATABASE_URL) is right',
  ),

  // ── drawers and search ─────────────────────────────────────────────────────
  /** No drawer has this id. details: id. */
  DRAWER_NOT_FOUND: spec<{ id: string }>(
    'user',
    (d) => `no drawer with id ${d.id} — ids are printed by \`loci search\` and \`loci list drawers\``,
  ),
  /**
   * A wing, room or hall name given by a caller cannot be used: empty, over 200 characters, a
   * control or bidi character or a lone surrogate in it, or `.` / `..`. details: kind, value, reason.
   */
  NAME_INVALID: spec<{ kind: string; value: string; reason: string }>(
    'user',
    (d) =>
      `cannot use ${JSON.stringify(d.value)} as a ${d.kind} name: ${d.reason} — give a short name such as "myapp" ` +
      'or "auth"',
  ),
  /**
   * A remote or MCP caller asked to mine a path outside the folders it may mine (by default the
   * server's project and the Claude Code configuration folder). details: path, roots.
   */
  MINE_OUTSIDE_ROOTS: spec<{ path: string; roots: string[] }>(
    'user',
    (d) =>
      `${d.path} is outside the folders this server may mine (${d.roots.join(', ') || 'none'}) — mine it with ` +
      `\`loci mine\`, or add its folder to LOCI_MINE_ROOTS where the server starts`,
  ),
  /** A search query has no searchable word. details: query. */
  QUERY_EMPTY: spec<{ query: string }>(
    'user',
    (d) => `the query ${JSON.stringify(d.query)} has no searchable words — add a word or two`,
  ),

  // ── conversations ──────────────────────────────────────────────────────────
  /**
   * `loci mine --claude`: the Claude Code configuration folder holds neither `projects/` nor
   * `history.jsonl` (Claude Code never ran with it, or another folder is meant). details: path.
   */
  CLAUDE_DIR_NOT_FOUND: spec<{ path: string }>(
    'user',
    (d) =>
      `no Claude Code transcripts in ${d.path} (no projects/ folder and no history.jsonl) — set CLAUDE_CONFIG_DIR ` +
      'to the folder Claude Code uses, or pass a path: loci mine <path> --mode convos',
  ),

  // ── memory files ───────────────────────────────────────────────────────────
  /** No memory file matches a name. details: name, dir, suggestions (close names, may be empty). */
  MEMORY_NOT_FOUND: spec<{ name: string; dir: string; suggestions: string[] }>(
    'user',
    (d) =>
      `no memory named ${JSON.stringify(d.name)} in ${d.dir}` +
      (d.suggestions.length
        ? ` — did you mean ${d.suggestions.map((s) => JSON.stringify(s)).join(', ')}?`
        : ' — run `loci memory list` to see the names'),
  ),
  /** Several memory files match a name. details: name, files. */
  MEMORY_AMBIGUOUS: spec<{ name: string; files: string[] }>(
    'user',
    (d) =>
      `${JSON.stringify(d.name)} matches several memories (${d.files.join(', ')}) — name the file instead, e.g. ` +
      `${JSON.stringify(d.files[0] ?? '')}`,
  ),
  /** A memory type is not one of user, feedback, project, reference. details: type. */
  MEMORY_INVALID_TYPE: spec<{ type: string }>(
    'user',
    (d) => `unknown memory type ${JSON.stringify(d.type)} — use one of user, feedback, project, reference`,
  ),
  /** A memory name cannot be used (empty, or a line break in it). details: name, reason. */
  MEMORY_INVALID_NAME: spec<{ name: string; reason: string }>(
    'user',
    (d) =>
      `cannot use ${JSON.stringify(d.name)} as a memory name: ${d.reason} — give a short title such as "testing ` +
      'policy"',
  ),
  /** A memory with this name or file already exists. details: name, file. */
  MEMORY_EXISTS: spec<{ name: string; file: string }>(
    'user',
    (d) =>
      `a memory named ${JSON.stringify(d.name)} already exists (${d.file}) — update it with \`loci memory edit\` ` +
      'instead of adding a duplicate',
  ),
  /** A privacy value is invalid or not allowed for the type. details: type, privacy, reason. */
  MEMORY_PRIVACY_INVALID: spec<{ type: string; privacy: string; reason: string }>(
    'user',
    (d) => `privacy ${JSON.stringify(d.privacy)} is not allowed for a ${d.type} memory: ${d.reason}`,
  ),
  /** An edit touches frontmatter fields of a file that has none (Loci never adds one). details: file, fields. */
  MEMORY_NO_FRONTMATTER: spec<{ file: string; fields: string[] }>(
    'user',
    (d) =>
      `${d.file} has no frontmatter, and Loci never adds one, so ${d.fields.join(', ')} cannot be set — edit only ` +
      'its body, or add a frontmatter block by hand',
  ),
  /** A memory file's frontmatter is not valid YAML, so it cannot be rewritten safely. details: file, reason. */
  MEMORY_FRONTMATTER_INVALID: spec<{ file: string; reason: string }>(
    'user',
    (d) => `the frontmatter of ${d.file} is not valid YAML (${d.reason}) — fix it by hand; the file was not changed`,
  ),

  // ── memory consolidation (dream) ───────────────────────────────────────────
  /** `loci dream --undo` found no run to undo (none, all undone, or the folder is busy). details: dir, reason. */
  DREAM_NOTHING_TO_UNDO: spec<{ dir: string; reason: string }>(
    'user',
    (d) => `nothing to undo in ${d.dir}: ${d.reason}`,
  ),
} as const;

/** The catalogue. Keep entries grouped by capability and documented. */
export const ERRORS = { ...BASE_ERRORS, ...SERVICE_ERRORS } as const;
