/**
 * @module serve
 * The team server front end (`loci serve`): MCP over Streamable HTTP and the JSON API of the CLI's
 * remote mode over one palace, with per-member tokens, rights per wing and an audit log (the rules
 * live in `src/team`). The only door of `src/serve/`.
 */
export { startTeamServer, DEFAULT_SERVE_PORT } from './server.js';
