/**
 * @module core/error-catalogue-services
 * The error catalogue's entries for the knowledge graph, MCP, the team server, the web UI, recall,
 * context, hooks, extraction, chat and the model providers (merged into `ERRORS` by
 * `core/error-catalogue.ts`).
 */
import { spec } from './error-spec.js';

/** The entries of the graph, the front ends and the providers. */
export const SERVICE_ERRORS = {
  // ── knowledge graph ────────────────────────────────────────────────────────
  /** A graph date is not `YYYY-MM-DD` or ISO-8601 with a zone. details: name (which field), value. */
  KG_INVALID_DATE: spec<{ name: string; value: string }>(
    'user',
    (d) =>
      `invalid date for ${d.name}: ${JSON.stringify(d.value)} — use YYYY-MM-DD or an ISO-8601 date-time with a ` +
      'zone, e.g. 2026-01-15 or 2026-01-15T09:30:00Z',
  ),
  /**
   * A fact's window would end before it starts (`valid_to < valid_from`), from `add` or
   * `invalidate`. details: subject, predicate, object, validFrom, validTo, reason.
   */
  KG_INVALID_WINDOW: spec<{
    subject: string;
    predicate: string;
    object: string;
    validFrom: string | null;
    validTo: string | null;
    reason: string;
  }>(
    'user',
    (d) =>
      `cannot place ${d.subject} ${d.predicate} ${d.object} from ${d.validFrom ?? 'the beginning'} to ` +
      `${d.validTo ?? 'now'}: ${d.reason} — pass an end date on or after the start (--to / --ended), or a ` +
      'start date (--from)',
  ),
  /** An entity name or alias has no letters or digits, or is too long. details: value, reason. */
  KG_INVALID_ENTITY: spec<{ value: string; reason: string }>(
    'user',
    (d) =>
      `cannot use ${JSON.stringify(d.value)} as an entity name: ${d.reason} — give a name with letters or digits, ` +
      'at most 200 characters',
  ),
  /** A predicate or literal object is empty or too long. details: name (predicate|object|type), value, reason. */
  KG_INVALID_TERM: spec<{ name: string; value: string; reason: string }>(
    'user',
    (d) => `cannot use ${JSON.stringify(d.value)} as a ${d.name}: ${d.reason} — use a short phrase such as works_at`,
  ),
  /**
   * An alias already names another entity. details: alias, entity (the one asked for), owner (its current entity id).
   */
  KG_ALIAS_TAKEN: spec<{ alias: string; entity: string; owner: string }>(
    'user',
    (d) =>
      `the alias ${JSON.stringify(d.alias)} already names the entity ${d.owner}, so it cannot also name ` +
      `${d.entity} — pick a more specific alias, or remove it from ${d.owner} first`,
  ),
  /** A paging cursor was not produced by this listing. details: cursor. */
  KG_INVALID_CURSOR: spec<{ cursor: string }>(
    'user',
    (d) =>
      `invalid cursor ${JSON.stringify(d.cursor)} — pass the nextCursor of the previous page unchanged, or omit it ` +
      'to start over',
  ),
  /** No entity has this name or alias (raised by front ends; the library returns undefined). details: name. */
  KG_ENTITY_NOT_FOUND: spec<{ name: string }>(
    'user',
    (d) =>
      `no entity named ${JSON.stringify(d.name)} — list them with \`loci kg entities\` (names and aliases are ` +
      'matched case-insensitively)',
  ),
  /** A tunnel would link a room to itself. details: wing, room. */
  KG_TUNNEL_SELF: spec<{ wing: string; room: string }>(
    'user',
    (d) =>
      `a tunnel needs two different rooms, but both ends are ${d.wing}/${d.room} — pick another target room or drawer`,
  ),

  // ── mcp ────────────────────────────────────────────────────────────────────
  /**
   * `loci mcp --http` was asked to listen on a non-loopback host without a bearer token (anyone on
   * the network could read and change the palace). details: host.
   */
  MCP_TOKEN_REQUIRED: spec<{ host: string }>(
    'user',
    (d) =>
      `refusing to serve MCP over HTTP on ${d.host} without a token — set LOCI_TOKEN to a long random secret ` +
      `(clients send it as \`Authorization: Bearer <token>\`), or bind to 127.0.0.1`,
  ),
  /**
   * One MCP message (a request line on stdio, a request body over HTTP) is over the transport's
   * limit; it was dropped unread. details: bytes (its size, or at least this many), max.
   */
  MCP_MESSAGE_TOO_LARGE: spec<{ bytes: number; max: number }>(
    'user',
    (d) =>
      `the request is ${d.bytes} bytes, over the ${d.max}-byte limit of one MCP message — send less text per call ` +
      `(each argument's size limit is in the tool's input schema)`,
  ),
  /** The HTTP port of `loci mcp --http` is taken or not allowed. details: host, port, reason. */
  MCP_LISTEN_FAILED: spec<{ host: string; port: number; reason: string }>(
    'system',
    (d) =>
      `cannot listen on ${d.host}:${d.port}: ${d.reason} — pick another port with --port, or stop the process using it`,
  ),

  // ── team server (loci serve, remote mode, memory sync) ──────────────────────
  /**
   * The team server refused the request's token (missing, unknown or revoked): HTTP 401.
   * details: server (the URL, '' on the server side).
   */
  TEAM_UNAUTHORISED: spec<{ server: string }>(
    'user',
    (d) =>
      `the team server${d.server ? ` ${d.server}` : ''} did not accept the token — set LOCI_TOKEN to a live token ` +
      '(an admin creates one with `loci serve token create --user NAME --grant WING:RIGHT`)',
  ),
  /** The token has no `right` on `wing` (`*` = every wing and the graph): HTTP 403. details: user, wing, right. */
  TEAM_FORBIDDEN: spec<{ user: string; wing: string; right: string }>(
    'user',
    (d) =>
      `${d.user} has no ${d.right} right on wing ${d.wing === '*' ? '* (every wing and the graph)' : d.wing} — ` +
      `ask an admin for a token with --grant ${d.wing}:${d.right}`,
  ),
  /** The team server cannot be reached (refused, DNS, TLS, reset). details: url, reason. */
  TEAM_SERVER_UNREACHABLE: spec<{ url: string; reason: string }>(
    'dependency',
    (d) => `cannot reach the team server ${d.url}: ${d.reason} — check LOCI_SERVER / --server and that it runs`,
  ),
  /** The team server answered with an unexpected status or body. details: url, status, reason. */
  TEAM_SERVER_FAILED: spec<{ url: string; status: number; reason: string }>(
    'dependency',
    (d) => `the team server ${d.url} failed (HTTP ${d.status}): ${d.reason}`,
  ),
  /** A command that needs the team server (`loci memory sync`) ran without one. details: command. */
  TEAM_SERVER_MISSING: spec<{ command: string }>(
    'user',
    (d) => `${d.command} needs a team server — set LOCI_SERVER=https://… and LOCI_TOKEN, or pass --server URL`,
  ),
  /** A command is not available in remote mode. details: operation. */
  TEAM_REMOTE_UNSUPPORTED: spec<{ operation: string }>(
    'user',
    (d) =>
      `${d.operation} is not available through the team server — unset LOCI_SERVER to run it on the local palace, ` +
      'or run it on the server',
  ),
  /** `loci serve token revoke` named no live token. details: id. */
  TEAM_TOKEN_NOT_FOUND: spec<{ id: string }>(
    'user',
    (d) => `no live token ${d.id} — \`loci serve token list\` shows the ids`,
  ),
  /** The palace was built without a team store (a custom `createPalace` without `team`). details: none. */
  TEAM_STORE_MISSING: spec<Record<string, never>>(
    'system',
    () => 'this palace has no team store — open it with openPalace, or pass `team` to createPalace',
  ),

  // ── web ui (loci ui) ───────────────────────────────────────────────────────
  /** `loci ui` was asked to bind a non-loopback host without `LOCI_TOKEN`. details: host. */
  UI_TOKEN_REQUIRED: spec<{ host: string }>(
    'user',
    (d) =>
      `refusing to serve the web UI on ${d.host} without a token — set LOCI_TOKEN to a long random secret ` +
      '(open the printed URL once: it carries the token), or bind to 127.0.0.1',
  ),
  /** `loci ui` cannot listen on the host and port. details: host, port, reason. */
  UI_LISTEN_FAILED: spec<{ host: string; port: number; reason: string }>(
    'system',
    (d) =>
      `cannot listen on ${d.host}:${d.port}: ${d.reason} — pick another port with --port, or stop the process using it`,
  ),
  /** The page's built assets are missing (a checkout that was not built). details: dir. */
  UI_ASSETS_MISSING: spec<{ dir: string }>(
    'system',
    (d) => `the web UI's assets are missing in ${d.dir} — run \`npm run build\` in the Loci checkout`,
  ),

  // ── recall ─────────────────────────────────────────────────────────────────
  /** `loci recall --llm` was given but no LLM provider is configured. details: flag. */
  RECALL_PROVIDER_MISSING: spec<{ flag: string }>(
    'user',
    (d) =>
      `${d.flag} needs an LLM provider, and none is configured — set LOCI_LLM_PROVIDER to anthropic, openai or ` +
      `ollama (plus its key, model or LOCI_LLM_BASE_URL as needed), or drop ${d.flag} to select memories ` +
      'with search',
  ),

  // ── context (loci/context) ─────────────────────────────────────────────────
  /**
   * A large tool result could not be written to `<home>/tool-results/` (disk full, permissions);
   * the result was not added. details: path, reason.
   */
  CONTEXT_RESULT_UNWRITABLE: spec<{ path: string; reason: string }>(
    'system',
    (d) => `cannot persist a tool result to ${d.path}: ${d.reason} — free disk space or fix the folder's permissions`,
  ),
  /**
   * The archive callback failed before a compaction or a clear, so nothing was replaced (the
   * messages are still in context). details: reason.
   */
  CONTEXT_ARCHIVE_FAILED: spec<{ reason: string }>(
    'system',
    (d) =>
      `could not archive the conversation before compacting it (${d.reason}) — nothing was removed; fix the ` +
      'palace (disk, lock) and compact again',
  ),
  /** The summariser failed and no fallback was allowed; nothing was replaced. details: reason. */
  CONTEXT_SUMMARY_FAILED: spec<{ reason: string }>(
    'dependency',
    (d) =>
      `could not summarise the conversation (${d.reason}) — nothing was removed; check the LLM provider, or use ` +
      'the extractive summariser',
  ),

  // ── hooks ──────────────────────────────────────────────────────────────────
  /** `loci hook <event>` got an event it does not handle. details: event, expected (the list). */
  HOOK_EVENT_UNKNOWN: spec<{ event: string; expected: string }>(
    'user',
    (d) =>
      `unknown hook event ${JSON.stringify(d.event)} — expected one of ${d.expected} (run \`loci hooks install\` ` +
      'to write the right commands)',
  ),
  /**
   * A hook's stdin is not the JSON object Claude Code sends (not JSON, not an object, or without a
   * field the event needs, such as `transcript_path`). details: event, reason.
   */
  HOOK_INPUT_INVALID: spec<{ event: string; reason: string }>(
    'user',
    (d) =>
      `the ${d.event} hook input is not the JSON object Claude Code sends (${d.reason}) — hooks read Claude Code's ` +
      'hook JSON on stdin',
  ),
  /** A Claude Code settings file cannot be merged (not JSON, or `hooks` of the wrong shape). details: path, reason. */
  HOOKS_SETTINGS_INVALID: spec<{ path: string; reason: string }>(
    'user',
    (d) =>
      `cannot update ${d.path}: ${d.reason} — fix the file (it must be a JSON object) and run the command again; ` +
      'nothing was written',
  ),

  // ── memory extraction and session notes ────────────────────────────────────
  /**
   * `loci extract --session ID` found no transcript of that session under Claude Code's projects
   * folder. details: session, configDir.
   */
  EXTRACT_SESSION_NOT_FOUND: spec<{ session: string; configDir: string }>(
    'user',
    (d) =>
      `no transcript of session ${d.session} under ${d.configDir}/projects — pass the file with --transcript, ` +
      'or set CLAUDE_CONFIG_DIR',
  ),
  /**
   * The model's answer to an extraction or session-notes request is not the strict JSON asked for,
   * even after one corrective retry; nothing was written. details: provider, reason.
   */
  EXTRACT_ANSWER_INVALID: spec<{ provider: string; reason: string }>(
    'dependency',
    (d) =>
      `the model (${d.provider}) did not answer in the required JSON format: ${d.reason} — nothing was written; ` +
      'retry, or use a stronger model (LOCI_LLM_MODEL)',
  ),

  // ── chat (the agent loop) ──────────────────────────────────────────────────
  /** `loci chat` was run but no LLM provider is configured. details: none. */
  CHAT_PROVIDER_MISSING: spec<Record<string, never>>(
    'user',
    () =>
      'loci chat needs an LLM and none is configured — set LOCI_LLM_PROVIDER (anthropic, openai or ollama) and ' +
      'LOCI_LLM_API_KEY (or ANTHROPIC_API_KEY / OPENAI_API_KEY); optionally LOCI_LLM_MODEL and LOCI_LLM_BASE_URL',
  ),

  // ── embedders and model providers ──────────────────────────────────────────
  /** A local model directory lacks a file. details: dir, file, hint. */
  MODEL_FILE_MISSING: spec<{ dir: string; file: string; hint: string }>(
    'dependency',
    (d) => `the model directory ${d.dir} has no ${d.file} — ${d.hint}`,
  ),
  /** An optional module is not installed. details: module, feature. */
  MODULE_MISSING: spec<{ module: string; feature: string }>(
    'dependency',
    (d) =>
      `${d.feature} needs the optional package ${d.module}, which is not installed — run ` +
      `\`ONNXRUNTIME_NODE_INSTALL=skip npm i ${d.module}\``,
  ),
  /** A remote provider answered with an error or could not be reached. details: provider, url, status, reason. */
  PROVIDER_FAILED: spec<{ provider: string; url: string; status?: number; reason: string }>(
    'dependency',
    (d) =>
      `${d.provider} at ${d.url} failed${d.status ? ` (HTTP ${d.status})` : ''}: ${d.reason} — check that the ` +
      'server runs and the key/model are right',
  ),
  /** A provider needs an API key that is not set. details: provider, envVar. */
  PROVIDER_KEY_MISSING: spec<{ provider: string; envVar: string }>(
    'user',
    (d) => `${d.provider} needs an API key — set ${d.envVar}`,
  ),
  /**
   * A local model's `tokenizer.json` declares a component the built-in tokenizer does not implement
   * (only BERT WordPiece tokenizers are supported). details: path, component (e.g. `model.type`), value.
   */
  TOKENIZER_UNSUPPORTED: spec<{ path: string; component: string; value: string }>(
    'dependency',
    (d) =>
      `${d.path} declares ${d.component} = ${JSON.stringify(d.value)}, which Loci's tokenizer does not support — ` +
      'use a BERT WordPiece model such as sentence-transformers/all-MiniLM-L6-v2',
  ),
  /**
   * A local ONNX model cannot be loaded or run, or its inputs/outputs are not those of a sentence
   * embedding model. details: path, reason.
   */
  MODEL_UNSUPPORTED: spec<{ path: string; reason: string }>(
    'dependency',
    (d) =>
      `cannot use the model ${d.path}: ${d.reason} — use the ONNX export of a sentence-embedding model (inputs ` +
      'input_ids/attention_mask, output last_hidden_state)',
  ),
} as const;
