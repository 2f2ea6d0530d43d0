/**
 * @module cli/progress
 * A one-line progress display on stderr, only when stderr is a terminal; silent otherwise.
 */
import type { CliIO } from './context.js';

/** A progress line that redraws at most ~10 times per second. */
interface ProgressLine {
  update(text: string): void;
  done(): void;
}

/** Creates a progress line on `io.stderr` (a no-op unless stderr is a terminal and `enabled`). */
export function progressLine(io: CliIO, enabled: boolean): ProgressLine {
  const columns = io.stderrColumns;
  const tty = enabled && columns !== undefined;
  let last = 0;
  let shown = false;
  return {
    update(text) {
      if (!tty) return;
      const t = Date.now();
      if (t - last < 100) return;
      last = t;
      const width = Math.max(20, (columns ?? 80) - 1);
      io.stderr('\r\x1b[2K' + (text.length > width ? text.slice(0, width - 1) + '…' : text));
      shown = true;
    },
    done() {
      if (tty && shown) io.stderr('\r\x1b[2K');
    },
  };
}

/** A text bar like `[######----]` for a fraction in [0, 1]. */
export function bar(fraction: number, width = 20): string {
  const f = Math.max(0, Math.min(1, fraction));
  const n = Math.round(f * width);
  return '[' + '#'.repeat(n) + '-'.repeat(width - n) + ']';
}
