/**
 * @module examples/quick-start
 * The README's library example, kept compiling and running by test/e2e/readme-example.test.ts.
 * Run: node --import tsx examples/quick-start.ts <home> <folder>
 */
import { openPalace } from 'loci';

const [home = '/tmp/my-palace', folder = './docs'] = process.argv.slice(2);

const palace = await openPalace({ home });
const summary = await palace.mine(folder, { wing: 'docs' });
console.log(`${summary.drawersAdded} drawers added`);

const { hits } = await palace.search('how do we deploy', { limit: 3 });
for (const hit of hits) console.log(hit.id, hit.source, hit.lines, hit.score.toFixed(3));

await palace.close();
