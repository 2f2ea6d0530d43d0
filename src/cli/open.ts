/**
 * @module cli/open
 * Opens the palace for a command from the global options, and always closes it. In remote mode
 * (`--server URL` or `LOCI_SERVER`) the palace is the team server's, reached through its JSON API
 * with `LOCI_TOKEN` (the team door is loaded only then).
 */
import { stderrLogger } from '../core/logger.js';
import { openPalace, type Palace } from '../palace/index.js';
import { readSettings } from '../core/env.js';
import type { CliContext } from './context.js';

/** The team server URL of remote mode (`--server` > `LOCI_SERVER`), or undefined. */
export function remoteServer(ctx: CliContext): string | undefined {
  return ctx.globals().server || readSettings(ctx.io.env).server;
}

/** Runs `fn` with an open palace (the team server's in remote mode), closing it afterwards. */
export async function withPalace<T>(ctx: CliContext, fn: (p: Palace) => Promise<T>): Promise<T> {
  const server = remoteServer(ctx);
  if (server) {
    const { createTeamClient, remotePalace } = await import('../team/index.js');
    return fn(remotePalace(createTeamClient({ url: server, token: readSettings(ctx.io.env).token })));
  }
  const home = ctx.globals().home ?? readSettings(ctx.io.env).home;
  const databaseUrl = ctx.globals().databaseUrl;
  const palace = await openPalace({
    ...(home ? { home } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    logger: stderrLogger('warn', ctx.io.stderr),
    env: ctx.io.env,
  });
  try {
    return await fn(palace);
  } finally {
    await palace.close();
  }
}
