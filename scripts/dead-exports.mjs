#!/usr/bin/env node
/**
 * @module scripts/dead-exports
 * Lists the exports of `src/` that no other file uses: a name exported by a source file but
 * referenced (imported, named, called) nowhere outside that file — in `src`, `test`, `bench` and
 * `examples` alike. Re-exporting a name (`export { x } from …`) is not a use; a name listed by a
 * published entry (`package.json` `exports`), or a type named in the signature of one, is in use by
 * definition. Prints one `file: name` line per
 * dead export and exits 1 when there is any, 0 otherwise.
 *
 * Usage: node scripts/dead-exports.mjs [--json]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

const configPath = join(root, 'tsconfig.json');
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
// The web pages (their own tsconfig, for the DOM and JSX) import the UI server's answer types.
const webPath = join(root, 'web', 'tsconfig.json');
const web = ts.parseJsonConfigFileContent(
  ts.readConfigFile(webPath, ts.sys.readFile).config,
  ts.sys,
  join(root, 'web'),
);
const program = ts.createProgram({
  rootNames: [...config.fileNames, ...web.fileNames],
  options: { ...config.options, jsx: web.options.jsx, jsxImportSource: web.options.jsxImportSource },
});
const checker = program.getTypeChecker();

/** The published entries: what they export is public API, used by definition. */
function publishedEntries() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = [];
  for (const target of Object.values(pkg.exports ?? {})) {
    const types = typeof target === 'string' ? target : target.types;
    if (typeof types !== 'string' || !types.startsWith('./dist/')) continue;
    out.push(join(src, types.slice('./dist/'.length).replace(/\.d\.ts$/, '.ts')));
  }
  return new Set(out);
}

const isSource = (f) => f.startsWith(src + '/') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts');
const projectFiles = program.getSourceFiles().filter((sf) => !sf.fileName.includes('/node_modules/'));

function resolveAlias(sym) {
  return sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
}

/** Declared symbol → files (other than its declaring files) that use it. */
const usedIn = new Map();
function note(sym, file) {
  if (!usedIn.has(sym)) usedIn.set(sym, new Set());
  usedIn.get(sym).add(file);
}

for (const sf of projectFiles) {
  const visit = (node) => {
    if (ts.isIdentifier(node) && !ts.isExportSpecifier(node.parent)) {
      const sym = checker.getSymbolAtLocation(node);
      if (sym) {
        const target = resolveAlias(sym);
        // An import specifier is a use only if the imported name is used: `noUnusedLocals` sees to that.
        note(target, sf.fileName);
        // `ns.name` through `import * as ns` resolves to the member itself: covered above.
      }
    }
    // `() => import('./x.js')` hands the whole module on (a loader): every export it declares is in use.
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      (ts.isArrowFunction(node.parent) || ts.isReturnStatement(node.parent))
    ) {
      const mod = node.arguments[0] && checker.getSymbolAtLocation(node.arguments[0]);
      if (mod) for (const e of checker.getExportsOfModule(mod)) note(resolveAlias(e), sf.fileName);
    }
    // `const { name } = await import('./x.js')` names the export through a property of the module.
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name;
      if (ts.isIdentifier(key)) {
        const prop = checker.getTypeAtLocation(node.parent).getProperty(key.text);
        if (prop) note(resolveAlias(prop), sf.fileName);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const published = publishedEntries();
const publicSymbols = new Set();
/** Adds `sym` and every type its declarations name (an option type of a public function is public too). */
function addPublic(sym) {
  if (!sym || publicSymbols.has(sym)) return;
  publicSymbols.add(sym);
  for (const decl of sym.declarations ?? []) {
    if (!isSource(decl.getSourceFile().fileName)) continue;
    const visit = (node) => {
      if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
        const name = ts.isTypeReferenceNode(node)
          ? node.typeName
          : ts.isTypeQueryNode(node)
            ? node.exprName
            : node.expression;
        const ref = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
        if (ref) addPublic(resolveAlias(ref));
      }
      // Function bodies and initialisers are implementation, not signature.
      if (ts.isBlock(node) || (ts.isVariableDeclaration(node.parent ?? node) && node === node.parent.initializer))
        return;
      ts.forEachChild(node, visit);
    };
    visit(decl);
  }
}
for (const entry of published) {
  const sf = program.getSourceFile(entry);
  const mod = sf && checker.getSymbolAtLocation(sf);
  if (!mod) continue;
  for (const e of checker.getExportsOfModule(mod)) addPublic(resolveAlias(e));
}

/** Launchers and scripts outside the program (`bin/`, `scripts/`) load built files by path: a word there is a use. */
const outsideText = ['bin', 'scripts']
  .flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)))
  .filter((f) => /\.(?:js|mjs)$/.test(f) && f !== fileURLToPath(import.meta.url))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const namedOutside = (name) => new RegExp(`\\b${name}\\b`).test(outsideText);

const dead = [];
for (const sf of projectFiles) {
  if (!isSource(sf.fileName)) continue;
  const mod = checker.getSymbolAtLocation(sf);
  if (!mod) continue;
  for (const e of checker.getExportsOfModule(mod)) {
    const target = resolveAlias(e);
    // Re-exports are judged at their declaration, not at each door they pass through.
    if (e !== target) continue;
    if (publicSymbols.has(target)) continue;
    const declFiles = new Set((target.declarations ?? []).map((d) => d.getSourceFile().fileName));
    const users = [...(usedIn.get(target) ?? [])].filter((f) => !declFiles.has(f));
    if (users.length === 0 && !namedOutside(e.getName()))
      dead.push({ file: relative(root, sf.fileName), name: e.getName() });
  }
}

dead.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(dead, null, 2) + '\n');
else for (const d of dead) process.stdout.write(`${d.file}: ${d.name}\n`);
process.stderr.write(`${dead.length} dead export(s)\n`);
process.exitCode = dead.length ? 1 : 0;
