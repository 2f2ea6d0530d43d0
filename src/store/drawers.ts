/**
 * @module store/drawers
 * The second door of `store`, for start-up: the SQLite drawer store (drawers, lexical index,
 * manifest, feed, usage) and its driver, without the graph, tunnel and vector adapters or the
 * in-memory ones. `openPalace` opens a palace through it and loads the rest through `index.ts` on
 * first use, so `loci search` and the hooks load a third of the store's modules (issue 12).
 */
export { createSqliteStore } from './sqlite/drawer-store.js';
export { openDatabase } from './sqlite/driver.js';
