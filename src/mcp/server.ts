/**
 * @module mcp/server
 * Builds the Loci MCP server on the SDK's `McpServer`: every tool of the registry is registered
 * with its title, description, zod input and output schemas and annotations, so `tools/list` is the
 * SDK's own. Calls go through one dispatcher (installed over the SDK's `tools/call` handler) that
 * validates arguments with the tool's strict input schema, runs it, validates the structured result
 * against its output schema, and turns every failure — bad arguments included — into an `isError`
 * result carrying `{ code, message, details }` from the error catalogue.
 *
 * Output schemas: each tool's result shape is advertised with its fields optional plus an `error`
 * field, because SDK clients up to at least 1.32 validate `structuredContent` against the output
 * schema even on `isError` results (modelcontextprotocol/typescript-sdk#1943) and would otherwise
 * throw away the error. Results themselves are checked against the strict shape. Pass
 * `strictOutputSchemas: true` to advertise the strict shapes.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { processEnv, readSettings } from '../core/env.js';
import { createError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { selectMemoryDir, type MemoryDirChoice } from '../memdir/index.js';
import { openPalace, type Palace } from '../palace/index.js';
import { ErrorShape } from './shapes.js';
import { errorResult, failureOf, invalidArguments, resultOfThrown } from './failure.js';
import { lociTools } from './registry.js';
import { mcpProjectDir } from './project.js';
import type { AnyTool, CallExtras, MemoryDirOptions, ToolContext } from './tool.js';

/** Options of {@link createLociMcpServer}. */
export interface LociMcpServerOptions {
  /** An open palace to serve (the caller closes it). Default: open the one in `home`. */
  palace?: Palace;
  /** Palace folder when `palace` is absent. Default `LOCI_HOME` or `~/.loci`. */
  home?: string;
  /** Diagnostics (stderr or a file; never stdout). Default silent. */
  logger?: Logger;
  /**
   * Working directory for relative paths and the memory directory's project. Default
   * `process.cwd()`. `CLAUDE_PROJECT_DIR` in `env` (an existing absolute directory) wins over it.
   */
  cwd?: string;
  /** Environment for locating Claude Code's memory directory. Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Folders `loci_mine` may read (MCP callers act for someone else: they may not mine
   * `/etc/passwd`). Default: `LOCI_MINE_ROOTS` from `env` (separated by `:`, `;` on Windows), else
   * the project of `cwd` (its git root, or `cwd`) and the Claude Code configuration folder
   * (`CLAUDE_CONFIG_DIR` or `~/.claude`).
   */
  mineRoots?: readonly string[];
  /** Advertise the strict output schemas (see the module comment). Default false. */
  strictOutputSchemas?: boolean;
  /** Server version reported at initialize. Default: the package version. */
  version?: string;
  /** Tools left out by name (the team server omits the memory-folder tools of its own machine). Default none. */
  omitTools?: readonly string[];
}

/** A built server: connect it to a transport with `server.connect(transport)`. */
export interface LociMcpServer {
  /** The SDK server. */
  readonly server: McpServer;
  /** The palace it serves. */
  readonly palace: Palace;
  /** The registered tools, in listing order. */
  readonly tools: readonly AnyTool[];
  /** Closes the SDK server and, when this server opened it, the palace. Idempotent. */
  close(): Promise<void>;
}

/** Sent once at initialize: how to use Loci, in a few lines (not repeated in any tool result). */
const INSTRUCTIONS = [
  "Loci is the user's local long-term memory: verbatim drawers of mined code, docs and past conversations, " +
    'organised in wings (projects, people, agents) and rooms (topics), plus Claude Code memory files.',
  'Before answering about past decisions, people or project history, search (loci_search) instead of guessing; ' +
    'open hits with loci_get_drawer or loci_drawer_neighbours.',
  'Save durable lessons as memory files (loci_memory_write / loci_memory_edit), raw text worth keeping with ' +
    'loci_add_drawer, and your own notes with loci_diary_write.',
].join('\n');

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The advertised output schema: every field optional, plus the error envelope. */
function advertisedOutput(shape: z.ZodRawShape, strict: boolean): z.ZodObject {
  if (strict) return z.object(shape);
  const loose: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) loose[k] = (v as z.ZodType).optional();
  loose['error'] = ErrorShape.optional().describe(
    'present only on failures (isError: true); the other fields are then absent',
  );
  return z.object(loose);
}

/** A memory-directory chooser that caches its answer for a few seconds (it may run git). */
function memoryDirChooser(
  cwd: string,
  env: NodeJS.ProcessEnv,
  lociHome: string,
): (o?: MemoryDirOptions) => MemoryDirChoice {
  const cache = new Map<string, { at: number; choice: MemoryDirChoice }>();
  return (o = {}) => {
    const key = o.user ? 'user' : 'project';
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < 10_000) return hit.choice;
    const choice = selectMemoryDir({ cwd, env, lociHome, ...(o.user ? { user: true } : {}) });
    cache.set(key, { at: Date.now(), choice });
    return choice;
  };
}

/**
 * `LOCI_MINE_ROOTS` when set, else the project root and Claude Code's configuration folder. Asked
 * by `loci_mine` only, which loads the miners anyway (the ingest door is not loaded at start).
 */
async function defaultMineRoots(env: NodeJS.ProcessEnv, projectRoot: () => string): Promise<string[]> {
  const fromEnv = readSettings(env).mineRoots;
  if (fromEnv.length) return fromEnv.map((p) => resolve(p));
  const { claudeConfigDir } = await import('../ingest/index.js');
  return [projectRoot(), claudeConfigDir(undefined, env)];
}

/** Builds the Loci MCP server (tools registered, not yet connected). */
export async function createLociMcpServer(opts: LociMcpServerOptions = {}): Promise<LociMcpServer> {
  const logger = opts.logger ?? silentLogger;
  const owned = opts.palace === undefined;
  const env = opts.env ?? processEnv();
  const palace = opts.palace ?? (await openPalace({ ...(opts.home ? { home: opts.home } : {}), logger, env }));
  // Claude Code names the project in CLAUDE_PROJECT_DIR; it wins over the working directory.
  const cwd = mcpProjectDir(opts.cwd ?? process.cwd(), env);
  // The graph is loaded on the first graph tool call, not at start (it would slow the cold start).
  const graph = typeof palace.graph === 'function' ? () => palace.graph() : undefined;
  const memoryDir = memoryDirChooser(cwd, env, palace.home);
  let roots: Promise<readonly string[]> | undefined;
  const mineRoots = () =>
    (roots ??= opts.mineRoots ? Promise.resolve(opts.mineRoots) : defaultMineRoots(env, () => memoryDir().projectRoot));
  const ctx: ToolContext = { palace, logger, cwd, env, memoryDir, mineRoots, ...(graph ? { graph } : {}) };
  const tools = lociTools({ kg: graph !== undefined }).filter((t) => !opts.omitTools?.includes(t.name));

  const server = new McpServer(
    { name: 'loci', title: 'Loci memory', version: opts.version ?? packageVersion() },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const compiled = new Map<string, { tool: AnyTool; input: z.ZodObject; output?: z.ZodObject; accepted: string[] }>();
  for (const tool of tools) {
    const input = z.strictObject(tool.input);
    compiled.set(tool.name, { tool, input, accepted: Object.keys(tool.input) });
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: input,
        outputSchema: advertisedOutput(tool.output, opts.strictOutputSchemas ?? false),
        annotations: { title: tool.title, ...tool.annotations },
      },
      // Never reached: the dispatcher below replaces the SDK's tools/call handler.
      () =>
        errorResult(
          failureOf(createError('INTERNAL', { what: `${tool.name} was called outside the Loci dispatcher` })),
        ),
    );
  }

  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const entry = compiled.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const args = request.params.arguments ?? {};
    const parsed = entry.input.safeParse(args);
    if (!parsed.success) return errorResult(invalidArguments(parsed.error, args, entry.accepted));
    const token = extra._meta?.progressToken;
    const extras: CallExtras = {
      signal: extra.signal,
      progress: (done, total, message) => {
        if (token === undefined) return;
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: done,
              ...(total !== undefined ? { total } : {}),
              ...(message ? { message } : {}),
            },
          })
          .catch(() => {});
      },
    };
    try {
      const reply = await entry.tool.run(ctx, parsed.data as never, extras);
      const out = (entry.output ??= z.object(entry.tool.output)).safeParse(reply.data);
      if (!out.success) {
        logger.log('error', `tool ${entry.tool.name} returned a result that does not match its output schema`, {
          issues: out.error.issues,
        });
        return errorResult(
          failureOf(createError('INTERNAL', { what: `${entry.tool.name} produced an invalid result` })),
        );
      }
      return { content: [{ type: 'text', text: reply.text }], structuredContent: out.data as Record<string, unknown> };
    } catch (e) {
      return resultOfThrown(e, entry.tool.name, logger);
    }
  });

  let closed: Promise<void> | undefined;
  return {
    server,
    palace,
    tools,
    close: () =>
      (closed ??= (async () => {
        await server
          .close()
          .catch((e: unknown) => logger.log('warn', 'closing the MCP server failed', { error: String(e) }));
        if (owned) await palace.close();
      })()),
  };
}
