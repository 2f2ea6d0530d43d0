/**
 * @module examples/library-use
 * The root entry (`loci`) in use: a palace (mine, search, get, the knowledge graph), Claude Code
 * memory files, recall into a prompt, consolidation, and catalogue errors. Type-checked by
 * `npm run typecheck` and run by test/e2e/readme-example.test.ts.
 * Run: node --import tsx examples/library-use.ts <home> <folder> <memory-dir>
 */
import {
  addMemory,
  buildRecall,
  findMemory,
  isLociError,
  listMemories,
  openPalace,
  runDream,
  type Fact,
  type SearchHit,
} from 'loci';

const [home = '/tmp/my-palace', folder = './docs', memoryDir = '/tmp/my-memories'] = process.argv.slice(2);

// A palace: mine a folder, search it, read a drawer back.
const palace = await openPalace({ home, embedder: null });
try {
  const summary = await palace.mine(folder, { wing: 'docs' });
  console.log(`mined: ${summary.drawersAdded} drawers`);
  const { hits } = await palace.search('deploy', { limit: 3 });
  const best: SearchHit | undefined = hits[0];
  const drawer = best && (await palace.get(best.id));
  if (drawer) console.log(`best: ${drawer.source} (${drawer.wing}/${drawer.room})`);

  // The knowledge graph: facts with validity windows.
  const { graph } = await palace.graph();
  await graph.addFact({ subject: 'Ada', predicate: 'works on', object: 'deploys', validFrom: '2026-01-05' });
  const facts: Fact[] = await graph.query('Ada');
  for (const f of facts) console.log(`fact: ${f.subjectName} ${f.predicate} ${f.objectName} since ${f.validFrom}`);
} finally {
  await palace.close();
}

// Memory files (Claude Code's format): write one, list them, recall the relevant ones into a prompt.
addMemory(memoryDir, {
  type: 'project',
  name: 'Deploy day',
  description: 'We deploy with a blue-green switch on Tuesdays',
  why: 'Fewer people are on call on Mondays',
});
console.log(
  `memories: ${listMemories(memoryDir)
    .map((m) => m.name)
    .join(', ')}`,
);
const recall = await buildRecall('when do we deploy?', { dir: memoryDir });
console.log(`recall: ${recall.memories.length} memories, ${recall.bytes} bytes`);

// Consolidation ("dream"): duplicates merged, relative dates made absolute, MEMORY.md rebuilt; a
// report per run, and `undoDream` puts the files back. With `llm`, contradictions are judged too.
const dream = await runDream({ dir: memoryDir, home, force: true });
console.log(`dream: ${dream.ran ? 'ran' : 'skipped'}, ${dream.changes.length} changes, model ${dream.model}`);

// Errors: one class, one catalogue; branch on `code`, never on the message.
try {
  findMemory(memoryDir, 'no such memory');
} catch (e) {
  if (isLociError(e, 'MEMORY_NOT_FOUND')) console.log(`error: ${e.code}`);
  else throw e;
}
