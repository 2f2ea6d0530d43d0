/** @module store/memory/graph.test — the graph and tunnel contracts on the in-memory adapters. */
import { createMemoryGraphStore } from '../../kg/index.js';
import { runGraphContract } from '../../testing/graph-contract.js';
import { runTunnelContract } from '../../testing/tunnel-contract.js';
import { createMemoryTunnelStore } from '../index.js';

runGraphContract({ name: 'memory', make: async () => createMemoryGraphStore() });
runTunnelContract({ name: 'memory', make: async () => createMemoryTunnelStore() });
