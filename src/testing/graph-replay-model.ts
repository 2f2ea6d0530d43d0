/**
 * @module testing/graph-replay-model
 * The graph contract's property-test oracle: random histories of adds, contradicting adds and
 * invalidations (`opArb`), and a naive replay of the graph rules over numeric windows
 * (`ReplayModel`) that every adapter's as-of answers must equal, checked by `assertReplayProperty`.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Fact, GraphStore } from '../kg/index.js';
import { T0, clock, code, day } from './contract-helpers.js';

/** One step of a random graph history. */
type Op =
  | {
      kind: 'add';
      s: string;
      p: string;
      o: string;
      lit: boolean;
      from: string | null | undefined;
      to: string | null | undefined;
    }
  | { kind: 'invalidate'; s: string; p: string; o: string; ended: string | undefined };

const dateArb = fc.integer({ min: 0, max: 11 }).map(day);
const objArb = fc.oneof(
  fc.record({ o: fc.constantFrom('acme', 'globex'), lit: fc.constant(false), p: fc.constantFrom('works_at', 'likes') }),
  fc.record({ o: fc.constantFrom('open', 'done'), lit: fc.constant(true), p: fc.constant('status') }),
);
/** A random step: adds four times as often as invalidations. */
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        kind: fc.constant('add' as const),
        s: fc.constantFrom('ann', 'bob'),
        obj: objArb,
        from: fc.option(fc.option(dateArb, { nil: null }), { nil: undefined, freq: 6 }),
        to: fc.option(fc.option(dateArb, { nil: null }), { nil: undefined, freq: 2 }),
      })
      .map(({ obj, ...r }) => ({ ...r, ...obj })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        kind: fc.constant('invalidate' as const),
        s: fc.constantFrom('ann', 'bob'),
        obj: objArb,
        ended: fc.option(dateArb, { nil: undefined }),
      })
      .map(({ obj, ...r }) => ({ ...r, o: obj.o, p: obj.p })),
  },
);

interface MFact {
  s: string;
  p: string;
  o: string;
  lit: boolean;
  from: number;
  to: number;
  seq: number;
}

/** The naive model: windows as numbers (±Infinity for open ends), rules applied by linear scans. */
class ReplayModel {
  facts: MFact[] = [];
  private readonly now: number;
  constructor(
    private readonly functional: Set<string>,
    now: string,
  ) {
    this.now = Date.parse(now);
  }
  add(
    s: string,
    p: string,
    o: string,
    lit: boolean,
    fromIn: string | null | undefined,
    toIn: string | null | undefined,
  ): boolean {
    let from = fromIn === undefined ? this.now : fromIn === null ? -Infinity : Date.parse(fromIn);
    let to = toIn == null ? Infinity : Date.parse(toIn);
    if (to < from) return false;
    if (
      to === Infinity &&
      this.facts.some((f) => f.s === s && f.p === p && f.o === o && f.lit === lit && f.to === Infinity)
    )
      return true;
    const seq = this.facts.length;
    if (from === to) {
      this.facts.push({ s, p, o, lit, from, to, seq });
      return true;
    }
    const rivals = this.facts.filter(
      (f) => f.s === s && f.p === p && f.from < f.to && (this.functional.has(p) || (f.o === o && f.lit === lit)),
    );
    if (from === -Infinity && rivals.some((f) => f.from === -Infinity)) {
      from = this.now;
      if (to < from) return false;
    }
    for (const f of rivals) if (f.from > from) to = Math.min(to, f.from);
    for (const f of rivals) if (f.from <= from && f.to > from) f.to = from;
    this.facts.push({ s, p, o, lit, from, to, seq });
    return true;
  }
  invalidate(s: string, p: string, o: string, endedIn: string | undefined): boolean {
    const ended = endedIn === undefined ? this.now : Date.parse(endedIn);
    const open = this.facts.filter((f) => f.s === s && f.p === p && f.o === o && f.to === Infinity);
    if (open.some((f) => f.from > ended)) return false;
    for (const f of open) f.to = ended;
    return true;
  }
  query(e: string, at: string): string[] {
    const t = Date.parse(at);
    const iso = (n: number, open: string) => (Number.isFinite(n) ? new Date(n).toISOString() : open);
    return this.facts
      .filter((f) => (f.s === e || (!f.lit && f.o === e)) && f.from <= t && t < f.to)
      .sort((a, b) => a.from - b.from || a.seq - b.seq)
      .map((f) => `${f.s} ${f.p} ${f.o} [${iso(f.from, '-inf')}, ${iso(f.to, 'open')})`);
  }
}

/** `f` as one line: subject, predicate, object and its window `[from, to)`. */
export const factWindow = (f: Fact) =>
  `${f.subject} ${f.predicate} ${f.object} [${f.validFrom ?? '-inf'}, ${f.validTo ?? 'open'})`;

/**
 * The contract's property: on `runs` random histories, `g`'s as-of answers equal a naive replay,
 * and the windows of one key never overlap.
 */
export async function assertReplayProperty(g: GraphStore, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
      await g.dangerouslyClearAll();
      const model = new ReplayModel(new Set(g.functionalPredicates), new Date(T0).toISOString());
      for (const op of ops) {
        if (op.kind === 'add') {
          const input = {
            subject: op.s,
            predicate: op.p,
            object: op.o,
            literal: op.lit,
            ...(op.from !== undefined ? { validFrom: op.from } : {}),
            ...(op.to !== undefined ? { validTo: op.to } : {}),
          };
          assert.equal(
            (await code(g.addFact(input, { clock }))) === 'ok',
            model.add(op.s, op.p, op.o, op.lit, op.from, op.to),
            JSON.stringify(op),
          );
        } else {
          const got = await code(
            g.invalidate(op.s, op.p, op.o, { clock, ...(op.ended !== undefined ? { ended: op.ended } : {}) }),
          );
          assert.equal(got === 'ok', model.invalidate(op.s, op.p, op.o, op.ended), JSON.stringify(op));
        }
      }
      for (const at of [...Array.from({ length: 12 }, (_, i) => day(i)), new Date(T0).toISOString(), day(40)]) {
        for (const e of ['ann', 'bob', 'acme', 'globex']) {
          const got = (await g.query(e, { asOf: at })).map(factWindow);
          assert.deepEqual(got, model.query(e, at), `${e} as of ${at}`);
        }
      }
      const windows = new Map<string, Fact[]>();
      for (const e of ['ann', 'bob']) {
        for (const f of (await g.timeline(e, { limit: 10_000 })).items) {
          if (f.subject !== e || (f.validTo !== null && f.validFrom === f.validTo)) continue;
          const key = g.functionalPredicates.has(f.predicate)
            ? `${f.subject} ${f.predicate}`
            : `${f.subject} ${f.predicate} ${f.object}`;
          windows.set(key, [...(windows.get(key) ?? []), f]);
        }
      }
      for (const [key, fs] of windows) {
        for (const a of fs)
          for (const b of fs) {
            if (a === b) continue;
            const apart =
              (a.validTo !== null && b.validFrom !== null && a.validTo <= b.validFrom) ||
              (b.validTo !== null && a.validFrom !== null && b.validTo <= a.validFrom);
            assert.ok(apart, `${key}: ${factWindow(a)} overlaps ${factWindow(b)}`);
          }
      }
    }),
    { numRuns: runs },
  );
}
