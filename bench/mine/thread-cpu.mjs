/**
 * @module bench/mine/thread-cpu
 * A preload for measuring only: prints to stderr, when the process exits, the CPU seconds of each of
 * its threads (user + system from `/proc/self/task/<tid>/stat`, Linux), the main thread apart from
 * the others (V8's compiler and GC helpers, a mining worker). Threads that end before the process are
 * kept from a sample every 100 ms. Usage (see BENCHMARKS.md, "Mining efficiency, run 9"):
 * `node --import ./bench/mine/thread-cpu.mjs bin/loci.js mine <dir> --json`.
 */
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  /** Last seen CPU seconds per thread id. */
  const last = new Map();
  const sample = () => {
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        last.set(tid, (Number(fields[11]) + Number(fields[12])) / 100); // utime + stime, in clock ticks
      } catch {
        // the thread ended between the listing and the read
      }
    }
  };
  setInterval(sample, 100).unref();
  process.on('exit', () => {
    sample();
    const main = last.get(String(process.pid)) ?? 0;
    const others = [...last].filter(([tid]) => tid !== String(process.pid)).map(([, s]) => s);
    others.sort((a, b) => b - a);
    const sum = others.reduce((a, b) => a + b, 0);
    writeSync(
      2,
      `thread-cpu: total ${(main + sum).toFixed(2)} s, main ${main.toFixed(2)}, others ${sum.toFixed(2)} ` +
        `(largest: ${others
          .slice(0, 4)
          .map((s) => s.toFixed(2))
          .join(' ')})\n`,
    );
  });
}
