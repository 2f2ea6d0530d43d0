/**
 * @module examples/context-use
 * `loci/context` in an agent loop: the context manager keeps the conversation inside the model's
 * window — large tool results go to disk with a preview, older turns are archived into a palace and
 * replaced by a running summary, and `/context`-style accounting shows where the tokens go.
 * The model is scripted here so that the example runs offline; the comments show where a real
 * provider call goes. Type-checked by `npm run typecheck`, run by test/e2e/readme-example.test.ts.
 * Run: node --import tsx examples/context-use.ts <home>
 */
import { openPalace } from 'loci';
import { createContextManager, palaceArchiver, type ToolOutput } from 'loci/context';

const [home = '/tmp/my-agent-home'] = process.argv.slice(2);

/** A scripted tool: "reading" a large generated file. */
function readModule(n: number): string {
  return Array.from({ length: 300 }, (_, i) => `export function step${n}_${i}(x: number) { return x + ${i}; }`).join(
    '\n',
  );
}

const palace = await openPalace({ home, embedder: null });
try {
  const ctx = createContextManager({
    model: 'claude-sonnet-4-5', // picks the token family (and the default 200k window)
    contextWindow: 16_000, // small on purpose, so that compaction happens in this demo
    home, // large tool results go to <home>/tool-results/<sha256>.txt
    maxResultSizeChars: 4_000,
    archive: palaceArchiver(palace, { wing: 'demo' }), // nothing leaves the context unarchived
    cwd: process.cwd(), // git snapshot and CLAUDE.md chain, captured once
    // summariser: llmSummariser(createLlmProvider({ provider: 'anthropic' })), // default: extractive
  });

  for (let turn = 1; turn <= 30; turn++) {
    ctx.appendUser(`Step ${turn}: read module ${turn} and tell me what it exports.`);
    for (const phase of ['tool', 'answer'] as const) {
      // Compacts first when the context crossed the threshold; `request` is ready for provider.stream().
      const { request, check, compaction } = await ctx.prepare();
      if (compaction)
        console.log(
          `compacted: ${compaction.replaced.count} messages into the summary ` +
            `(${compaction.tokensBefore} → ${compaction.tokensAfter} tokens)`,
        );
      if (check.nudge) console.log(`nudge: ${check.nudge.slice(0, 40)}…`);
      // const stream = provider.stream({ ...request, maxTokens: 4096 }); … the `done` event gives message + usage.
      void request;
      const usage = { inputTokens: ctx.contextTokens(), outputTokens: 30, cacheReadTokens: 0, cacheCreationTokens: 0 };
      if (phase === 'tool') {
        const id = `call_${turn}`;
        ctx.appendAssistant({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: { turn } }] });
        ctx.recordUsage(usage);
        const output: ToolOutput = { toolUseId: id, toolName: 'read', content: readModule(turn) };
        ctx.appendToolResults([output]); // persisted: the model sees a preview and the path
      } else {
        ctx.appendAssistant({ role: 'assistant', content: `Module ${turn} exports 300 step functions.` });
        ctx.recordUsage(usage);
      }
    }
  }

  // `/compact focus on …`: only what was added since the last compaction is summarised.
  await ctx.compact({ instructions: 'focus on which modules were read' });
  await ctx.flushArchive(); // at exit: archive what is still only in context

  for (const row of ctx.breakdown().sections) console.log(`${row.section.padEnd(18)} ${row.tokens}`);
  const results = ctx.toolResults.totals();
  console.log(`compactions: ${ctx.compactions().length}`);
  console.log(`persisted results: ${results.persisted} (${results.charsKeptOut} characters kept out of context)`);
  // Drawers group consecutive messages; their metadata says which (seqFrom … seqTo).
  const { drawers } = await palace.listDrawers({ wing: 'demo' }, { limit: 10_000 });
  const archived = drawers.reduce((n, d) => n + Number(d.metadata['seqTo']) - Number(d.metadata['seqFrom']) + 1, 0);
  console.log(`archived messages: ${archived} in ${drawers.length} drawers`);
  console.log(`messages appended: ${ctx.bookkeeping().appended}`);
} finally {
  await palace.close();
}
