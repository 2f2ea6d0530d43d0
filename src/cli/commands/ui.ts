/**
 * @module cli/commands/ui
 * `loci ui [--port P] [--host H]`: serves the web UI (palace browser, search with signal bars,
 * knowledge graph, memory files, agents, status) on 127.0.0.1. Another host needs `LOCI_TOKEN`;
 * the printed URL then carries it once. The UI's server (Hono) loads only with this command.
 */
import { readSettings } from '../../core/env.js';
import { stderrLogger } from '../../core/logger.js';
import { serveUi } from '../../ui/index.js';
import type { RegisterCommand } from '../context.js';
import { intOption } from '../format.js';
import { untilStopped } from '../serve.js';
import { VERSION } from '../version.js';

/** Registers `loci ui`. */
export const register: RegisterCommand = (program, ctx) => {
  program
    .command('ui')
    .description('serve the web UI on 127.0.0.1: browse, search, the knowledge graph, memory files, agents, status')
    .option('--port <port>', 'port (default 5625; 0 picks a free one)')
    .option('--host <host>', 'interface (default 127.0.0.1; any other needs LOCI_TOKEN)')
    .action(async (o: { port?: string; host?: string }) => {
      const settings = readSettings(ctx.io.env);
      const home = ctx.globals().home ?? settings.home;
      const serving = await serveUi({
        host: o.host ?? '127.0.0.1',
        port: intOption('--port', o.port, 5625, 0, 65535),
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        version: VERSION,
        logger: stderrLogger('warn', ctx.io.stderr),
        ...(home ? { home } : {}),
        ...(settings.token ? { token: settings.token } : {}),
      });
      ctx.io.stdout(`loci ui: ${serving.url}\n`);
      ctx.io.stderr('loci ui: open the URL above in a browser; Ctrl-C to stop\n');
      await untilStopped(serving);
    });
};
