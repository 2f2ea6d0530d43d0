/**
 * @module ingest/convos-miner/unknown-types
 * Genuinely unknown record types are reported once per run, not once per file: the parsers count
 * them per file (`unknown <format> record type "<type>" skipped (<n>×)`), and the miner sums those
 * lines into one warning per type with the number of records and files.
 */

const UNKNOWN = /^(.*?): (unknown .+? (?:record|message) type "(?:[^"\\]|\\.)*") skipped \((\d+)×\)$/;

/** Sums per-file unknown-type warnings over a run. */
export class UnknownTypes {
  private readonly seen = new Map<string, { records: number; files: number }>();

  /** The warnings of one file without its unknown-type lines (which are counted). */
  take(warnings: readonly string[]): string[] {
    const out: string[] = [];
    for (const w of warnings) {
      const m = UNKNOWN.exec(w);
      if (!m) {
        out.push(w);
        continue;
      }
      const k = this.seen.get(m[2]!) ?? { records: 0, files: 0 };
      k.records += Number(m[3]);
      k.files++;
      this.seen.set(m[2]!, k);
    }
    return out;
  }

  /** One warning per unknown type seen in the run. */
  finish(): string[] {
    return [...this.seen].map(
      ([what, k]) =>
        `${what}: ${k.records} record(s) in ${k.files} file(s) skipped — please report it if it holds conversation ` +
        'text',
    );
  }
}
