import { runGraphContract, runTunnelContract } from '../testing/graph-contract.js';
import { createMemoryGraphStore, createMemoryTunnelStore } from './index.js';

runGraphContract({ name: 'memory', make: async () => createMemoryGraphStore() });
runTunnelContract({ name: 'memory', make: async () => createMemoryTunnelStore() });
