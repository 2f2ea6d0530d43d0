import { runStoreContract } from '../../testing/store-contract.js';
import { createMemoryStore } from './memory-store.js';

runStoreContract({ name: 'memory', make: async () => createMemoryStore() });
