/** @module store/memory/team.test — the team-store contract on the in-memory adapter. */
import { runTeamContract } from '../../testing/team-contract.js';
import { createMemoryTeamStore } from '../index.js';

runTeamContract({ name: 'memory', make: async () => createMemoryTeamStore() });
