/**
 * @module team
 * Team scale: the rules of the team server (tokens stored hashed, rights per wing, the audit log,
 * the guarded palace of a member), team memory sync (server-side three-way merges over the kept
 * history, the member's folder side), and the client of the server's JSON API with the remote
 * palace the CLI's remote mode uses. The only door of `src/team/`; storage is the `TeamStore` port.
 */
export { openTeam, type Team } from './team.js';
export { parseGrant, hasRight, type TeamPrincipal } from './access.js';
export { merge3 } from './diff3.js';
export {
  applyMemorySync,
  type MemoryChange,
  type MemoryOutcome,
  type MemorySyncRequest,
  type MemorySyncResponse,
} from './memory-sync.js';
export { syncMemoryDir, syncStatePath } from './sync-client.js';
export { createTeamClient, API_PREFIX, type TeamClient } from './client.js';
export { remotePalace, REMOTE_GRAPH_METHODS } from './remote-palace.js';
export type { TeamAuditEntry, TeamGrant, TeamRight, TeamToken } from '../store/index.js';
