#!/usr/bin/env node
// Builds the page of `loci ui` (web/) into dist/ui/assets with esbuild: one minified ES module
// (Preact included), one stylesheet and the icon. Nothing is fetched at run time: `loci ui` serves
// these files itself. Run by `npm run build` and `prepare`, after tsc.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const out = new URL('dist/ui/assets/', root);
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [new URL('web/main.tsx', root).pathname],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outfile: new URL('app.js', out).pathname,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(new URL('web/app.css', root), new URL('app.css', out));
copyFileSync(new URL('web/favicon.svg', root), new URL('favicon.svg', out));
