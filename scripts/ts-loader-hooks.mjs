// The module hooks of scripts/ts-loader.mjs (they run on Node's loader thread).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let out = '';

/** Receives the compiled tree's folder from ts-loader.mjs. */
export function initialize(data) {
  out = data?.out ?? '';
}

/** `./x.js` written in a .ts file names `./x.ts` when that exists (TypeScript's NodeNext rule). */
export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent?.endsWith('.ts') && specifier.endsWith('.js') && (specifier[0] === '.' || specifier[0] === '/')) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(ts)) return { url: ts.href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

/** The compiled JavaScript of a .ts file: from the tree when it is not older than the source. */
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const rel = relative(root, file);
  if (out && !rel.startsWith('..')) {
    const js = `${out}${sep}${rel.slice(0, -3)}.js`;
    const compiled = statSync(js, { throwIfNoEntry: false });
    if (compiled && compiled.mtimeMs >= statSync(file).mtimeMs) {
      return { format: 'module', source: readFileSync(js, 'utf8'), shortCircuit: true };
    }
  }
  const { transformSync } = await import('esbuild');
  const { code } = transformSync(readFileSync(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: file,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: 'ES2022' } },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
