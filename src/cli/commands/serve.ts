/**
 * @module cli/commands/serve
 * `loci serve` (the team server: MCP over Streamable HTTP and the JSON API of remote mode),
 * `loci serve token create|list|revoke` (per-member tokens, stored hashed) and `loci serve audit`
 * (the log of writes). These always act on the local palace (the server's), never in remote mode.
 * While serving, stdout stays empty; the address and logs go to stderr.
 */
import { createError } from '../../core/errors.js';
import { readSettings } from '../../core/env.js';
import { stderrLogger, type LogLevel } from '../../core/logger.js';
import { openPalace } from '../../palace/index.js';
import { DEFAULT_SERVE_PORT, startTeamServer } from '../../serve/index.js';
import { openTeam, parseGrant, type Team, type TeamToken } from '../../team/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { colors, intOption, printJson, table } from '../format.js';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
const repeat = (v: string, acc: string[] = []) => [...acc, v];

interface ServeFlags {
  port?: string;
  host?: string;
  allowOrigin?: string[];
  allowHost?: string[];
  idleTimeout?: string;
  logLevel?: string;
}

const homeOf = (ctx: CliContext) => ctx.globals().home ?? readSettings(ctx.io.env).home;

/** Runs `fn` with the local palace's team operations. */
async function withTeam<T>(ctx: CliContext, fn: (t: Team) => Promise<T>): Promise<T> {
  const home = homeOf(ctx);
  const palace = await openPalace({ ...(home ? { home } : {}), env: ctx.io.env });
  try {
    return await fn(await openTeam(palace));
  } finally {
    await palace.close();
  }
}

function tokenJson(t: TeamToken) {
  return {
    id: t.id,
    user: t.user,
    grants: t.grants.map((g) => `${g.wing}:${g.right}`),
    created_at: t.createdAt,
    revoked_at: t.revokedAt,
  };
}

async function serve(ctx: CliContext, o: ServeFlags): Promise<void> {
  const level = (o.logLevel ?? 'warn') as LogLevel;
  if (!(LEVELS as readonly string[]).includes(level))
    throw createError('INVALID_ARGUMENT', { name: '--log-level', value: level, expected: LEVELS.join(', ') });
  const vars = readSettings(ctx.io.env);
  const idle = o.idleTimeout ?? vars.mcpIdleSeconds;
  const home = homeOf(ctx);
  const serving = await startTeamServer({
    ...(home ? { home } : {}),
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    logger: stderrLogger(level, ctx.io.stderr),
    host: o.host ?? '127.0.0.1',
    port: intOption('--port', o.port, DEFAULT_SERVE_PORT, 0, 65535),
    allowedOrigins: [...vars.mcpAllowedOrigins, ...(o.allowOrigin ?? [])],
    ...(o.allowHost ? { allowedHosts: o.allowHost } : {}),
    idleSessionMs: intOption('--idle-timeout', idle, 300, 1, 7 * 24 * 3600) * 1000,
  });
  ctx.io.stderr(
    `loci serve: team server at ${serving.url} (MCP at ${serving.url}/mcp, API at ${serving.url}/api/v1); ` +
      'every request needs Authorization: Bearer <token>; Ctrl-C to stop\n',
  );
  let stopping = false;
  // A repeated signal while draining is ignored: the requests in flight still finish.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    ctx.io.stderr('loci serve: stopping: finishing requests in flight\n');
    void serving.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await serving.closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  ctx.io.stderr('loci serve: stopped\n');
}

export const register: RegisterCommand = (program, ctx) => {
  const cmd = program
    .command('serve')
    .description('run the team server: MCP over HTTP and the API of remote mode, with per-member tokens')
    .option('--port <port>', `port (default ${DEFAULT_SERVE_PORT}; 0 picks a free one)`)
    .option('--host <host>', 'interface to bind (default 127.0.0.1; put a TLS proxy in front of a public one)')
    .option('--allow-origin <origin>', 'also accept requests from this browser origin (repeatable)', repeat)
    .option('--allow-host <host:port>', 'accept this Host header, e.g. loci.example:443 (repeatable)', repeat)
    .option('--idle-timeout <seconds>', 'close an MCP session after this long without requests (default 300)')
    .option('--log-level <level>', 'stderr log level: debug, info, warn, error (default warn)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  loci serve token create --user alice --grant myapp:write --grant "*:read"\n' +
        '  loci serve --host 0.0.0.0 --port 5625\n' +
        '  LOCI_SERVER=http://host:5625 LOCI_TOKEN=loci_… loci search "deploy"   # on a member machine\n' +
        '\nRights per wing: read (search, get, pull memories), write (add, mine uploads, push memories),\n' +
        'admin (delete, audit log). "*" is every wing and the knowledge graph.\n',
    )
    .action((o: ServeFlags) => serve(ctx, o));

  const token = cmd.command('token').description('manage member tokens (stored hashed; shown once at creation)');
  token
    .command('create')
    .description('create a token for a member and print it once')
    .requiredOption('--user <name>', 'who the token stands for (audit log, merge labels)')
    .option('--grant <wing:right>', 'a right on a wing: read, write or admin; * = every wing (repeatable)', repeat)
    .option('--json', 'print as JSON')
    .action(async (o: { user: string; grant?: string[]; json?: boolean }) => {
      const grants = (o.grant ?? []).map(parseGrant);
      const r = await withTeam(ctx, (t) => t.createToken({ user: o.user, grants }));
      if (o.json) return printJson(ctx.io, { token: r.token, ...tokenJson(r.record) });
      ctx.io.stdout(`${r.token}\n`);
      ctx.io.stderr(
        `loci: token ${r.record.id} for ${r.record.user} (${tokenJson(r.record).grants.join(', ')}); ` +
          'it is shown only now — give it to the member as LOCI_TOKEN\n',
      );
    });
  token
    .command('list')
    .description('list tokens (ids, users, grants; never the secrets)')
    .option('--json', 'print as JSON')
    .action(async (o: { json?: boolean }) => {
      const all = await withTeam(ctx, (t) => t.listTokens());
      if (o.json) return printJson(ctx.io, { tokens: all.map(tokenJson) });
      if (!all.length) return ctx.io.stdout('no tokens — create one with `loci serve token create`\n');
      const c = colors(ctx.io);
      const rows = [['ID', 'USER', 'GRANTS', 'CREATED', 'STATE']];
      for (const t of all.map(tokenJson))
        rows.push([
          t.id,
          t.user,
          t.grants.join(' '),
          t.created_at.slice(0, 10),
          t.revoked_at ? c.dim('revoked') : 'live',
        ]);
      ctx.io.stdout(table(rows));
    });
  token
    .command('revoke')
    .description('revoke a token by id (takes effect on the next request)')
    .argument('<id>', 'the token id, as `token list` prints it')
    .option('--json', 'print as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      await withTeam(ctx, (t) => t.revokeToken(id));
      if (o.json) return printJson(ctx.io, { revoked: id });
      ctx.io.stdout(`revoked ${id}\n`);
    });

  cmd
    .command('audit')
    .description('print the audit log of writes (who, what, when, which wing), oldest first')
    .option('--wing <wing>', 'only this wing')
    .option('--after <seq>', 'only entries after this sequence number')
    .option('-n, --limit <n>', 'at most this many (1-10000, default 100)')
    .option('--json', 'print as JSON')
    .action(async (o: { wing?: string; after?: string; limit?: string; json?: boolean }) => {
      const entries = await withTeam(ctx, (t) =>
        t.auditLog({
          after: intOption('--after', o.after, 0, 0, Number.MAX_SAFE_INTEGER),
          limit: intOption('--limit', o.limit, 100, 1, 10_000),
          ...(o.wing ? { wing: o.wing } : {}),
        }),
      );
      if (o.json) return printJson(ctx.io, { entries });
      if (!entries.length) return ctx.io.stdout('no audited writes\n');
      const rows = [['SEQ', 'AT', 'USER', 'ACTION', 'WING', 'TARGET']];
      for (const e of entries) rows.push([String(e.seq), e.at, e.user, e.action, e.wing, e.target]);
      ctx.io.stdout(table(rows));
    });
};
