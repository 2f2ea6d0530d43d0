/**
 * @module ui
 * The web UI front end (`loci ui`): a local web app over the library — palace browser, search with
 * each signal's contribution, knowledge-graph timelines, memory files, agents and status. The
 * server is `server.ts` (Hono); the page is built from `web/` into `dist/ui/assets`. Loaded only by
 * `loci ui`, so other commands never pay for it.
 */
export { serveUi, type UiServing } from './server.js';
