/**
 * @module testing/tunnel-contract
 * The contract every {@link TunnelStore} adapter must pass (explicit tunnels, implicit ones by room
 * name, traversal). Adapters call `runTunnelContract` from their own test file; a test may be
 * skipped only with a stated reason.
 */
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { implicitTunnels, traverse, type TunnelStore } from '../kg/index.js';
import { clock, code, registrar } from './contract-helpers.js';

/** Options of {@link runTunnelContract}. */
interface TunnelContractOptions {
  name: string;
  /** Returns a fresh, initialised tunnel store. */
  make: () => Promise<TunnelStore>;
  skip?: { reason: string; tests: string[] }[];
}

/** Registers the tunnel contract tests for one adapter. */
export function runTunnelContract(opts: TunnelContractOptions): void {
  let t: TunnelStore;
  const it = registrar(opts.skip, () => t);
  describe(`tunnel contract: ${opts.name}`, () => {
    before(async () => {
      t = await opts.make();
    });
    after(async () => {
      await t.close();
    });

    it('create is symmetric and upserts the label; list, follow and delete', async () => {
      const a = await t.create(
        { source: { wing: 'api', room: 'auth' }, target: { wing: 'web', room: 'login' }, label: 'same bug' },
        { clock },
      );
      const b = await t.create(
        { source: { wing: 'web', room: 'login' }, target: { wing: 'api', room: 'auth' }, label: 'same flow' },
        { clock },
      );
      assert.equal(b.id, a.id);
      assert.deepEqual([b.label, b.source.wing, b.createdAt], ['same flow', 'api', '2026-01-15T12:00:00.000Z']);
      await t.create(
        { source: { wing: 'api', room: 'auth', drawerId: 'd1' }, target: { wing: 'ops', room: 'deploy' } },
        { clock },
      );
      assert.equal((await t.list()).length, 2);
      assert.equal((await t.list({ wing: 'web' })).length, 1);
      assert.deepEqual((await t.follow({ wing: 'api', room: 'auth' })).map((f) => `${f.to.wing}/${f.to.room}`).sort(), [
        'ops/deploy',
        'web/login',
      ]);
      assert.deepEqual(
        (await t.follow({ wing: 'web', room: 'login' })).map((f) => f.to.room),
        ['auth'],
      );
      assert.equal(
        await code(t.create({ source: { wing: 'a', room: 'r' }, target: { wing: 'a', room: 'r' } })),
        'KG_TUNNEL_SELF',
      );
      assert.equal(await t.delete(a.id), true);
      assert.equal(await t.delete(a.id), false);
      assert.equal((await t.list()).length, 1);
    });

    it('traverse walks implicit (same room name) and explicit tunnels breadth-first', async () => {
      const rooms = [
        { wing: 'api', room: 'auth', count: 5 },
        { wing: 'web', room: 'auth', count: 2 },
        { wing: 'web', room: 'login', count: 3 },
        { wing: 'ops', room: 'deploy', count: 1 },
        { wing: 'api', room: 'general', count: 9 },
        { wing: 'web', room: 'general', count: 9 },
      ];
      assert.deepEqual(implicitTunnels(rooms), [{ room: 'auth', wings: ['api', 'web'] }]);
      await t.create(
        { source: { wing: 'web', room: 'auth' }, target: { wing: 'ops', room: 'deploy' }, label: 'rollout' },
        { clock },
      );
      const steps = await traverse({ wing: 'api', room: 'auth' }, 3, { rooms: () => rooms, tunnels: t });
      assert.deepEqual(
        steps.map((s) => [`${s.wing}/${s.room}`, s.hops, s.via]),
        [
          ['api/auth', 0, 'start'],
          ['web/auth', 1, 'implicit'],
          ['ops/deploy', 2, 'explicit'],
        ],
      );
      assert.equal(steps[2]?.label, 'rollout');
      assert.equal((await traverse({ wing: 'api', room: 'auth' }, 1, { rooms: () => rooms, tunnels: t })).length, 2);
      assert.equal((await traverse({ wing: 'api', room: 'general' }, 3, { rooms: () => rooms })).length, 1);
    });
  });
}
