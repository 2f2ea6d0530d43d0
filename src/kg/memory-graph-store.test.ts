/** @module kg/memory-graph-store.test — the graph and tunnel contracts on the in-memory adapters. */
import { runGraphContract, runTunnelContract } from '../testing/graph-contract.js';
import { createMemoryGraphStore, createMemoryTunnelStore } from './index.js';

runGraphContract({ name: 'memory', make: async () => createMemoryGraphStore() });
runTunnelContract({ name: 'memory', make: async () => createMemoryTunnelStore() });
