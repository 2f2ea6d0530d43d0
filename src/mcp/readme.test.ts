/**
 * @module mcp/readme.test
 * `README.md` lists every tool of the registry with its annotations: the table is generated from
 * the registry and must match the checked-in one (`LOCI_UPDATE_DOCS=1` rewrites it).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { TOOLS_END, TOOLS_START, renderToolTable } from './readme.js';
import { lociTools } from './registry.js';

const README = new URL('./README.md', import.meta.url);

test('README.md lists every tool with its annotations', () => {
  const doc = readFileSync(README, 'utf8');
  const table = renderToolTable();
  const start = doc.indexOf(TOOLS_START);
  const end = doc.indexOf(TOOLS_END);
  const current = start >= 0 && end > start ? doc.slice(start, end + TOOLS_END.length) : '${TOOLS}';
  if (process.env['LOCI_UPDATE_DOCS'] === '1' && current !== table) {
    writeFileSync(README, doc.replace(current, table));
    return;
  }
  assert.equal(
    current,
    table,
    'src/mcp/README.md is out of date: run LOCI_UPDATE_DOCS=1 node --import tsx --test src/mcp/readme.test.ts',
  );
  for (const t of lociTools({ kg: true })) assert.ok(doc.includes(`\`${t.name}\``), t.name);
});
