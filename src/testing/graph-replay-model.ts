/**
 * @module testing/graph-replay-model
 * The graph contract's property-test oracle: random histories of adds, contradicting adds and
 * invalidations (`opArb`), and a naive replay of the graph rules over numeric windows
 * (`ReplayModel`) that every adapter's as-of answers must equal.
 */
import fc from 'fast-check';
import { day } from './contract-helpers.js';

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
export const opArb: fc.Arbitrary<Op> = fc.oneof(
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
export class ReplayModel {
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
