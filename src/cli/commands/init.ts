/**
 * @module cli/commands/init
 * `loci init`: create the palace explicitly (idempotent).
 */
import type { RegisterCommand } from '../context.js';
import { printJson } from '../format.js';
import { withPalace } from '../open.js';

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('init')
    .description('create the palace folder and database (safe to run again)')
    .option('--json', 'print the result as JSON')
    .action(async (o: { json?: boolean }) => {
      await withPalace(ctx, async (p) => {
        const s = await p.status();
        if (o.json)
          printJson(ctx.io, {
            home: s.home,
            database: s.database,
            drawers: s.drawers,
            schema_version: s.schemaVersion,
          });
        else ctx.io.stdout(`palace ready at ${s.home} (${s.drawers} drawers)\n`);
      });
    });
};
