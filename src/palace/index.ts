/**
 * @module palace
 * The palace facade used by every front end.
 */
export { openPalace, type OpenPalaceOptions, type MineOptions, type Palace, type PalaceStatus, type PalaceInternals } from './palace.js';
