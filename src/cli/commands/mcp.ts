/**
 * @module cli/commands/mcp
 * `loci mcp` (stdio MCP server), `loci mcp --http` (Streamable HTTP) and `loci mcp install`
 * (Claude Code registration). The SDK and zod are loaded only inside these actions (the library's
 * MCP entry points import them lazily), so other commands do not pay for them. While serving over
 * stdio, stdout belongs to the protocol: this command never writes to it, and logs go to stderr.
 */
import { createError } from '../../core/errors.js';
import { readSettings } from '../../core/env.js';
import { stderrLogger, type LogLevel } from '../../core/logger.js';
import { installMcpServer, serveMcpHttp, serveMcpStdio } from '../../mcp/index.js';
import type { CliContext, DirectCommand, RegisterCommand } from '../context.js';
import { intOption, printJson } from '../format.js';
import { untilStopped } from '../serve.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

function logLevel(raw: string | undefined): LogLevel {
  const v = raw ?? 'warn';
  if (!(LEVELS as readonly string[]).includes(v))
    throw createError('INVALID_ARGUMENT', { name: '--log-level', value: v, expected: LEVELS.join(', ') });
  return v as LogLevel;
}

const homeOf = (ctx: CliContext) => ctx.globals().home ?? readSettings(ctx.io.env).home;

interface ServeOptions {
  http?: boolean;
  port?: string;
  host?: string;
  logLevel?: string;
  allowOrigin?: string[];
  idleTimeout?: string;
}

async function serve(ctx: CliContext, o: ServeOptions): Promise<void> {
  const logger = stderrLogger(logLevel(o.logLevel), ctx.io.stderr);
  const home = homeOf(ctx);
  const base = { logger, cwd: ctx.io.cwd, env: ctx.io.env, ...(home ? { home } : {}) };
  if (!o.http) {
    if (o.port !== undefined || o.host !== undefined || o.allowOrigin !== undefined || o.idleTimeout !== undefined) {
      throw createError('INVALID_ARGUMENT', {
        name: '--port/--host/--allow-origin/--idle-timeout',
        value: o.port ?? o.host ?? o.allowOrigin ?? o.idleTimeout,
        expected: 'used together with --http',
      });
    }
    const serving = await serveMcpStdio(base);
    await serving.closed;
    return;
  }
  const vars = readSettings(ctx.io.env);
  const token = vars.token;
  const envOrigins = vars.mcpAllowedOrigins;
  const idleFlag = o.idleTimeout ?? vars.mcpIdleSeconds;
  const idleSeconds = intOption(
    o.idleTimeout !== undefined ? '--idle-timeout' : 'LOCI_MCP_IDLE_SECONDS',
    idleFlag,
    300,
    1,
    7 * 24 * 3600,
  );
  const serving = await serveMcpHttp({
    ...base,
    host: o.host ?? '127.0.0.1',
    port: intOption('--port', o.port, 5624, 0, 65535),
    allowedOrigins: [...envOrigins, ...(o.allowOrigin ?? [])],
    idleSessionMs: idleSeconds * 1000,
    ...(token ? { token } : {}),
  });
  ctx.io.stderr(
    `loci mcp: serving at ${serving.url}${token ? ' (Authorization: Bearer $LOCI_TOKEN required)' : ''}; Ctrl-C to ` +
      'stop\n',
  );
  await untilStopped(serving);
}

/**
 * `loci mcp` over stdio without commander (what Claude Code starts: its cold start is the time to the
 * first answer); `--http`, `install` and help go through commander.
 */
export const direct: DirectCommand = {
  name: 'mcp',
  maxArgs: 0,
  options: [{ flags: '--log-level <level>', description: '' }],
  run: (_args, opts, ctx) => serve(ctx, opts as ServeOptions),
};

export const register: RegisterCommand = (program, ctx) => {
  const mcp = program
    .command('mcp')
    .description('run the MCP server for agents (stdio by default; --http for Streamable HTTP)')
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <port>', 'HTTP port (default 5624; 0 picks a free one)')
    .option('--host <host>', 'HTTP interface (default 127.0.0.1; any other needs LOCI_TOKEN)')
    .option(
      '--allow-origin <origin>',
      'HTTP: also accept requests from this browser origin, e.g. https://app.example (repeatable; adds to ' +
        'LOCI_MCP_ALLOWED_ORIGINS); loopback origins are always accepted',
      (v: string, acc: string[] = []) => [...acc, v],
    )
    .option(
      '--idle-timeout <seconds>',
      'HTTP: close a session after this long without requests (default: LOCI_MCP_IDLE_SECONDS or 300)',
    )
    .option('--log-level <level>', 'stderr log level: debug, info, warn, error (default warn)')
    .action((o: ServeOptions) => serve(ctx, o));

  mcp
    .command('install')
    .description(
      'register `loci mcp` with Claude Code (.mcp.json for project scope; prints `claude mcp add` for user/local)',
    )
    .option('--scope <scope>', 'project (default), user or local')
    .option('--name <name>', 'server name in Claude Code (default loci)')
    .option('--print', 'print the registration instead of writing it')
    .option('--json', 'print the result as JSON')
    .action(async (o: { scope?: string; name?: string; print?: boolean; json?: boolean }) => {
      const scope = o.scope ?? 'project';
      if (scope !== 'project' && scope !== 'user' && scope !== 'local')
        throw createError('INVALID_ARGUMENT', { name: '--scope', value: scope, expected: 'project, user or local' });
      const home = ctx.globals().home;
      const r = await installMcpServer({
        scope,
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        ...(o.name ? { name: o.name } : {}),
        ...(o.print ? { print: true } : {}),
        ...(home ? { home } : {}),
      });
      if (o.json) return printJson(ctx.io, r);
      if (r.file === null) {
        ctx.io.stdout(`${r.claudeCommand}\n`);
      } else if (r.action === 'printed') {
        ctx.io.stdout(`# ${r.file}\n${r.json ?? ''}`);
        ctx.io.stdout(`# or: ${r.claudeCommand}\n`);
      } else {
        ctx.io.stdout(
          `${r.action === 'unchanged' ? 'already registered' : r.action === 'created' ? 'created' : 'updated'}: ` +
            `${r.name} in ${r.file} (${[r.entry.command, ...r.entry.args].join(' ')})\n`,
        );
        if (r.action !== 'unchanged')
          ctx.io.stdout('restart Claude Code in this project and approve the project server when asked\n');
      }
      for (const n of r.notes) ctx.io.stderr(`loci: note: ${n}\n`);
    });
};
