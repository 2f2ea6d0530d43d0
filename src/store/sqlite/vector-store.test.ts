import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runVectorContract } from '../../testing/vector-contract.js';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';
import { createSqliteVectorStore, loadSqliteVec } from './vector-store.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-vec-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

runVectorContract({
  name: 'sqlite-vec',
  make: async () => {
    const path = join(dir, `p${n++}.db`);
    const db = openDatabase(path);
    loadSqliteVec(db);
    const drawers = createSqliteStore(db, { path });
    return { drawers, vectors: createSqliteVectorStore(db, path), close: () => drawers.close() };
  },
});
