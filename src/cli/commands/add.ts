/**
 * @module cli/commands/add
 * `loci add`: stores one drawer of text (from the arguments or stdin) in a wing and room, locally or,
 * in remote mode, on the team server (which checks the write right on the wing and audits it).
 */
import { createError } from '../../core/errors.js';
import type { RegisterCommand } from '../context.js';
import { printJson } from '../format.js';
import { withPalace } from '../open.js';

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('add')
    .description('store a piece of text as a drawer (from the arguments or stdin)')
    .argument('[text...]', 'the text; read from stdin when absent')
    .requiredOption('-w, --wing <wing>', 'the wing (project, person, agent)')
    .requiredOption('-r, --room <room>', 'the room (topic)')
    .option('--hall <hall>', 'the hall (facts, events, discoveries, preferences, advice)')
    .option('--source <source>', 'where the text comes from (a path or URL)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  loci add -w myapp -r deploy "we deploy on Tuesdays"\n' +
        '  git log -1 | loci add -w myapp -r history\n',
    )
    .action(
      async (words: string[], o: { wing: string; room: string; hall?: string; source?: string; json?: boolean }) => {
        const text = words.length ? words.join(' ') : await ctx.io.readStdin();
        if (text.trim() === '')
          throw createError('INVALID_ARGUMENT', {
            name: 'text',
            value: text,
            expected: 'some text (arguments or stdin)',
          });
        const r = await withPalace(ctx, (p) =>
          p.addDrawer({
            text,
            wing: o.wing,
            room: o.room,
            ...(o.hall ? { hall: o.hall } : {}),
            ...(o.source ? { source: o.source } : {}),
          }),
        );
        if (o.json) return printJson(ctx.io, r);
        ctx.io.stdout(
          `${r.added ? 'added' : 'already stored'} ${r.id}` +
            `${r.redactions ? ` (${r.redactions} secrets redacted)` : ''}\n`,
        );
      },
    );
};
