/**
 * @module cli/open
 * Opens the palace for a command from the global options, and always closes it.
 */
import { stderrLogger } from '../core/logger.js';
import { openPalace, type Palace } from '../palace/index.js';
import { readSettings } from '../core/env.js';
import type { CliContext } from './context.js';

/** Runs `fn` with an open palace, closing it afterwards. */
export async function withPalace<T>(ctx: CliContext, fn: (p: Palace) => Promise<T>): Promise<T> {
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
