import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runStoreContract } from '../../testing/store-contract.js';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract({
  name: 'sqlite',
  make: async () => {
    const path = join(dir, 'palace.db');
    return createSqliteStore(openDatabase(path), { path });
  },
});
