/**
 * @module bench/lib/hook-palace
 * The palace of the hook benches (`hooks`, `startup`): N generated drawers (~600 characters each,
 * 10 % in the project's wing `acme-api`, a fifth of those in decision-like halls) plus five memory
 * files of the project, in the home of a hook test world.
 */
import { addMemory, openPalace, selectMemoryDir } from '../../dist/index.js';
import { rng, prose } from '../../test/helpers/corpus.js';

/** Topics of the generated drawers; questions about them find something. */
export const TOPICS = [
  'rate limit login redis window',
  'export job nightly schedule',
  'oauth device flow token',
  'migration index column table',
  'cache ttl eviction worker',
  'retry budget timeout queue',
];
const HALLS = ['facts', 'preferences', 'advice', 'events', 'discoveries', 'general'];

/** Fills `home` with `n` drawers and the project's memory files; returns the drawer count and the memory folder. */
export async function buildHookPalace(
  world: { home: string; project: string; env: NodeJS.ProcessEnv },
  n: number,
): Promise<{ drawers: number; memDir: string }> {
  const { home, project, env } = world;
  const r = rng(11);
  const palace = await openPalace({ home, embedder: null });
  for (let i = 0; i < n; i += 5000) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 5000); j++) {
      const ours = j % 10 === 0;
      const topic = TOPICS[j % TOPICS.length]!;
      batch.push({
        wing: ours ? 'acme-api' : `w${j % 7}`,
        room: `r${j % 19}`,
        hall: ours && j % 50 === 0 ? HALLS[(j / 50) % 3]! : HALLS[3 + (j % 3)]!,
        source: `/bench/session-${Math.floor(j / 12)}.jsonl`,
        chunkIndex: j % 12,
        contentDate: new Date(Date.now() - (j % 400) * 86_400_000).toISOString(),
        text: `User: ${prose(r, 30)} ${topic}?\nAssistant: ${prose(r, 60)} We decided ${topic} ${prose(r, 10)}`,
      });
    }
    await palace.store.put(batch);
  }
  const drawers = await palace.store.count();
  await palace.close();
  const memDir = selectMemoryDir({ cwd: project, env, lociHome: home }).dir;
  addMemory(memDir, {
    type: 'feedback',
    name: 'tests in band',
    description: 'integration tests need --runInBand: they share one database',
    pinned: true,
  });
  addMemory(memDir, {
    type: 'project',
    name: 'redis limiter',
    description: 'login rate limiting uses Redis, 5 attempts per minute per IP, /healthz exempt',
  });
  addMemory(memDir, {
    type: 'project',
    name: 'oauth device flow',
    description: 'the CLI moves from API keys to the OAuth device flow',
  });
  addMemory(memDir, {
    type: 'reference',
    name: 'latency board',
    description: 'grafana board of login latency and limiter rejections',
  });
  addMemory(memDir, {
    type: 'user',
    name: 'ana',
    description: 'Ana, backend developer, prefers short answers with code',
  });
  return { drawers, memDir };
}
