/**
 * @module test/public-api
 * The published surface of the package, pinned: the names of the root entry (`loci`, `src/index.ts`)
 * are listed here, so that adding or removing one is a deliberate change made in this file too;
 * every name of the root and of the subpath entries (`loci/kg`, `loci/mcp`, `loci/hooks`) carries
 * TSDoc at its declaration; `package.json` publishes exactly these entries (the internal entry
 * `src/internal.ts`, used by the front ends and tooling, is not one of them). The names are read from the
 * declaration files that `npm run build` emits (what a library user's compiler reads; ~2 CPU-s cheaper than a
 * program over the sources).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The root entry, sorted. Change it together with `src/index.ts`, and say why in the commit. */
const ROOT_EXPORTS = [
  'AddMemoryInput',
  'Clock',
  'DiaryEntryInput',
  'Drawer',
  'DrawerFilter',
  'DrawerInput',
  'DrawerPatch',
  'DreamOptions',
  'DreamResult',
  'EditMemoryInput',
  'Embedder',
  'EmbedderConfig',
  'Entity',
  'ErrorCategory',
  'ErrorCode',
  'ErrorDetails',
  'Fact',
  'GraphStore',
  'ListOptions',
  'LlmProvider',
  'LociError',
  'LogLevel',
  'Logger',
  'ExtractOptions',
  'ExtractResult',
  'Memory',
  'MemoryDirChoice',
  'MemoryEntry',
  'MemoryStore',
  'MemoryType',
  'MineConvosSummary',
  'MineOptions',
  'OpenPalaceOptions',
  'Palace',
  'PalaceConfig',
  'PalaceDeps',
  'PalaceGraph',
  'PalaceStatus',
  'Privacy',
  'PromptContext',
  'ProviderConfig',
  'RecallOptions',
  'RecallResult',
  'SessionNotesOptions',
  'SessionNotesResult',
  'SearchHit',
  'SearchOptions',
  'SearchResult',
  'Tunnel',
  'WakeUpOptions',
  'WakeUpResult',
  'addMemory',
  'buildPromptContext',
  'buildRecall',
  'createEmbedder',
  'createLlmProvider',
  'createMemoryGraphTables',
  'createMemoryStore',
  'createMemoryTunnelStore',
  'createPalace',
  'editMemory',
  'extractMemories',
  'findMemory',
  'forgetMemory',
  'getMemory',
  'isLociError',
  'listMemories',
  'openPalace',
  'runDream',
  'selectMemoryDir',
  'stderrLogger',
  'updateSessionNotes',
  'undoDream',
  'wakeUp',
];

/** package.json `exports` subpath → source entry. */
const PUBLISHED: Record<string, string> = {
  '.': 'src/index.ts',
  './kg': 'src/kg/index.ts',
  './mcp': 'src/mcp/index.ts',
  './hooks': 'src/hooks/index.ts',
  './context': 'src/context/index.ts',
};

/** The declaration file that `npm run build` emits for a source entry: what a library user's compiler reads. */
const declarationOf = (entry: string) => join(root, entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.d.ts'));
const entries = Object.values(PUBLISHED).map(declarationOf);
const program = ts.createProgram(entries, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

/** The exports of an entry, each resolved to its declaration. */
function exportsOf(entry: string): { name: string; symbol: ts.Symbol }[] {
  const sf = program.getSourceFile(entry);
  assert.ok(sf, `${entry} is in the program (run \`npm run build\` first)`);
  const mod = checker.getSymbolAtLocation(sf);
  assert.ok(mod, `${entry} is a module`);
  return checker.getExportsOfModule(mod).map((e) => ({
    name: e.getName(),
    symbol: e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e,
  }));
}

test('the root entry exports exactly the pinned names', () => {
  const names = exportsOf(declarationOf('src/index.ts'))
    .map((e) => e.name)
    .sort();
  const added = names.filter((n) => !ROOT_EXPORTS.includes(n));
  const removed = ROOT_EXPORTS.filter((n) => !names.includes(n));
  assert.deepEqual(
    { added, removed },
    { added: [], removed: [] },
    'the public API changed: update ROOT_EXPORTS in test/public-api.test.ts if that is deliberate',
  );
  assert.ok(names.length <= 80, `${names.length} names: the root entry is for library users, keep it small`);
});

test('every name of the published entries has TSDoc at its declaration', () => {
  const undocumented: string[] = [];
  for (const [subpath, entry] of Object.entries(PUBLISHED)) {
    for (const { name, symbol } of exportsOf(declarationOf(entry))) {
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      if (doc === '') undocumented.push(`${subpath}: ${name}`);
    }
  }
  assert.deepEqual(undocumented, [], 'document these where they are declared (a /** … */ comment)');
});

test('package.json publishes the root and the optional subpaths, not the internal entry', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types: string; import: string }>;
  };
  const published = Object.keys(pkg.exports).filter((k) => k !== './package.json');
  assert.deepEqual(published.sort(), Object.keys(PUBLISHED).sort());
  for (const [subpath, entry] of Object.entries(PUBLISHED)) {
    const target = pkg.exports[subpath] as { types: string; import: string };
    const built = entry.replace(/^src\//, './dist/').replace(/\.ts$/, '');
    assert.deepEqual(target, { types: `${built}.d.ts`, import: `${built}.js` }, subpath);
  }
  assert.ok(!JSON.stringify(pkg.exports).includes('internal'), 'the internal entry stays unpublished');
});
