// ESLint flat config: the recommended rules of ESLint and typescript-eslint (syntax only, no type
// information, so a lint of the whole tree takes seconds), plus the house rules of AGENTS.md that a
// linter checks well. Layering (folder cycles, doors, front ends through the entry, SQL homes) is
// checked by test/architecture.test.ts, which parses the imports itself. Formatting is prettier's
// (`npm run format:check`); the only layout rule here is the 120-column limit, which prettier cannot
// enforce on long strings and comments.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Front ends own stdout and stderr (AGENTS.md "Output discipline"); everything else is library. */
const FRONT_ENDS = ['src/cli/**', 'src/mcp/**', 'src/hooks/**'];

/**
 * Files that may read `process.env`. Keep equal to ENV_READERS in test/architecture.test.ts (the
 * test is the reference and also covers tests of the list itself).
 */
const ENV_READERS = [
  'src/cli/main.ts',
  'src/core/home.ts',
  'src/core/launcher.ts',
  'src/embed/create.ts',
  'src/embed/http-embedders.ts',
  'src/embed/types.ts',
  'src/hooks/install.ts',
  'src/hooks/log.ts',
  'src/hooks/main.ts',
  'src/hooks/queue.ts',
  'src/hooks/run.ts',
  'src/hooks/wake-up.ts',
  'src/hooks/worker.ts',
  'src/ingest/convos-miner/claude-dirs.ts',
  'src/ingest/mine-convos.ts',
  'src/mcp/install.ts',
  'src/mcp/server.ts',
  'src/memdir/claude-md.ts',
  'src/memdir/resolve.ts',
  'src/palace/graph.ts',
  'src/palace/palace.ts',
  'src/palace/vectors.ts',
  'src/providers/create.ts',
  'src/providers/types.ts',
];

/** Globals of the plain-JavaScript files (bin, scripts); TypeScript files get theirs from tsc. */
const NODE_GLOBALS = {
  process: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'scratch/**', 'test/fixtures/**', 'bench/data/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: NODE_GLOBALS },
    rules: {
      // Deprecated in ESLint 9 with the other layout rules but still shipped and exact: prettier
      // wraps code at 120 columns, this catches the strings, comments and test names it cannot wrap.
      'max-len': ['warn', { code: 120, tabWidth: 2, ignoreUrls: false }],
      // Sanitising text is this project's job: escape.ts, neutralise.ts, tokenizers and their tests match
      // control characters on purpose.
      'no-control-regex': 'off',
      // `_`-prefixed parameters and rest siblings are deliberate (port signatures, omit-by-rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [...FRONT_ENDS, 'src/**/*.test.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'Library code never writes to stdout: take a Logger.' },
        { object: 'process', property: 'stderr', message: 'Library code never writes to stderr: take a Logger.' },
      ],
    },
  },
  {
    // The stderr logger is the one library object that writes to stderr, for front ends to pass in.
    files: ['src/core/logger.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [...ENV_READERS, 'src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration where the environment is already read (ENV_READERS), and pass it down.',
        },
      ],
    },
  },
);
