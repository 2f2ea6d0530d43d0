import { runVectorContract } from '../../testing/vector-contract.js';
import { createMemoryStore } from './memory-store.js';
import { createMemoryVectorStore } from './vector-store.js';

runVectorContract({
  name: 'memory',
  make: async () => {
    const drawers = createMemoryStore();
    return { drawers, vectors: createMemoryVectorStore(drawers), close: async () => {} };
  },
});
