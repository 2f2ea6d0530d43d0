/**
 * @module test/helpers/mine
 * Mines a path into the palace at `home` (conversation mode unless told otherwise) with a fresh
 * palace handle, as the CLI would.
 */
import { openPalace, type MineConvosSummary, type MineOptions } from '../../src/index.js';

/** Opens the palace at `home`, mines `path` (`mode: 'convos'` by default) and closes it. */
export async function mineAt(home: string, path: string, o: MineOptions = {}): Promise<MineConvosSummary> {
  const p = await openPalace({ home, embedder: null });
  try {
    return await p.mine(path, { mode: 'convos', ...o });
  } finally {
    await p.close();
  }
}
