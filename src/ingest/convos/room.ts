/**
 * @module ingest/convos/room
 * The room of a conversation drawer: its topic, from a small fixed vocabulary.
 *
 * Rule: count whole-word, case-insensitive keyword matches per room ({@link ROOM_VOCABULARY}; at
 * most 5 per room; matching on word tokens, see phrases, so `front-end` also matches "front end"
 * and "auth" never matches "author") in the first 5,000 characters; the room with the most
 * matches wins, ties go to the room listed first; no match gives `general`. For a conversation (`roomForConversation`)
 * the text is
 * its title, its first user message (first 2,000 characters) and the last folder of its `cwd`
 * with `-`/`_` read as spaces (so `acme-auth-service` counts for auth), so that every drawer of one
 * session shares one room. `roomForText` applies the same rule to any text (e.g. one chunk).
 */
import { PhraseMatcher, wordTokens } from './phrases.js';
import type { Conversation } from './types.js';

/**
 * Room → keywords (lower case; a keyword of several words matches them in sequence, whatever separates them). Order
 * breaks ties.
 */
const ROOM_VOCABULARY: Readonly<Record<string, readonly string[]>> = {
  auth: [
    'auth',
    'authentication',
    'authenticate',
    'authorization',
    'login',
    'logout',
    'log in',
    'sign in',
    'signin',
    'signup',
    'sign up',
    'oauth',
    'jwt',
    'sso',
    'password',
    'passwords',
    'credentials',
    'permission',
    'permissions',
    'rbac',
    '2fa',
    'mfa',
  ],
  database: [
    'database',
    'databases',
    'db',
    'sql',
    'sqlite',
    'postgres',
    'postgresql',
    'mysql',
    'mongodb',
    'redis',
    'migration',
    'migrations',
    'schema',
    'query',
    'queries',
    'orm',
    'prisma',
    'index',
    'indexes',
    'transaction',
    'transactions',
  ],
  testing: [
    'test',
    'tests',
    'testing',
    'unit test',
    'e2e',
    'jest',
    'vitest',
    'pytest',
    'mocha',
    'coverage',
    'fixture',
    'fixtures',
    'flaky',
    'assertion',
    'assertions',
    'mock',
    'mocks',
    'tdd',
  ],
  deploy: [
    'deploy',
    'deploys',
    'deployment',
    'deploying',
    'deployed',
    'release',
    'releases',
    'ci',
    'pipeline',
    'docker',
    'dockerfile',
    'kubernetes',
    'k8s',
    'helm',
    'terraform',
    'staging',
    'production',
    'github actions',
    'rollout',
    'rollback',
  ],
  ui: [
    'ui',
    'ux',
    'css',
    'frontend',
    'front-end',
    'layout',
    'button',
    'buttons',
    'component',
    'components',
    'react',
    'vue',
    'svelte',
    'tailwind',
    'html',
    'modal',
    'dark mode',
    'styling',
    'responsive',
    'accessibility',
    'a11y',
  ],
  performance: [
    'performance',
    'perf',
    'slow',
    'slower',
    'latency',
    'speed',
    'speedup',
    'optimize',
    'optimise',
    'optimization',
    'optimisation',
    'benchmark',
    'benchmarks',
    'memory leak',
    'profiling',
    'throughput',
    'cache',
    'caching',
    'bottleneck',
  ],
  docs: [
    'docs',
    'documentation',
    'readme',
    'changelog',
    'docstring',
    'docstrings',
    'tsdoc',
    'jsdoc',
    'tutorial',
    'guide',
    'wiki',
  ],
  bugs: [
    'bug',
    'bugs',
    'error',
    'errors',
    'crash',
    'crashes',
    'exception',
    'broken',
    'fails',
    'failing',
    'failure',
    'regression',
    'stack trace',
    'traceback',
    'debug',
    'debugging',
    'fix',
    'hotfix',
  ],
  planning: [
    'plan',
    'planning',
    'roadmap',
    'milestone',
    'milestones',
    'todo',
    'todos',
    'spec',
    'proposal',
    'estimate',
    'sprint',
    'priority',
    'priorities',
    'design doc',
    'requirements',
    'architecture',
  ],
  api: [
    'api',
    'apis',
    'endpoint',
    'endpoints',
    'rest',
    'graphql',
    'grpc',
    'http',
    'webhook',
    'webhooks',
    'route',
    'routes',
    'openapi',
  ],
  security: [
    'security',
    'vulnerability',
    'vulnerabilities',
    'cve',
    'xss',
    'csrf',
    'injection',
    'secret',
    'secrets',
    'encryption',
    'encrypt',
    'tls',
    'ssl',
  ],
  refactor: [
    'refactor',
    'refactoring',
    'refactored',
    'cleanup',
    'clean up',
    'rename',
    'restructure',
    'tech debt',
    'technical debt',
    'simplify',
  ],
  config: [
    'config',
    'configuration',
    'settings',
    'env',
    'environment variable',
    'environment variables',
    'dotenv',
    'yaml',
    'toml',
    'setup',
    'install',
    'installation',
  ],
  dependencies: [
    'dependency',
    'dependencies',
    'npm',
    'pnpm',
    'yarn',
    'pip',
    'package',
    'packages',
    'upgrade',
    'version bump',
    'lockfile',
  ],
};

const ROOMS = Object.keys(ROOM_VOCABULARY);
// keywords are split into words the way texts are (`front-end` → front end)
const MATCHER = new PhraseMatcher(
  ROOMS.map((r) =>
    ROOM_VOCABULARY[r]!.map((k) =>
      k
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .join(' '),
    ),
  ),
);

/** The room of any text (see the module comment). */
export function roomForText(text: string): string {
  const counts = MATCHER.count(wordTokens(text), ROOMS.length, 5);
  let best = 'general';
  let top = 0;
  counts.forEach((n, i) => {
    if (n > top) {
      top = n;
      best = ROOMS[i]!;
    }
  });
  return best;
}

/** The room of a whole conversation: title + first user message + cwd's last folder. */
export function roomForConversation(conv: Conversation): string {
  const first =
    conv.messages.find((m) => m.kind === 'message' && m.role === 'user') ??
    conv.messages.find((m) => m.kind === 'message');
  const folder = conv.cwd
    ? (
        conv.cwd
          .replace(/[\\/]+$/, '')
          .split(/[\\/]/)
          .pop() ?? ''
      ).replace(/[-_]+/g, ' ')
    : '';
  return roomForText([conv.title ?? '', (first?.text ?? '').slice(0, 2000), folder].join('\n'));
}
