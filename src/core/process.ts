/**
 * @module core/process
 * Whether a process is running, for locks and temp files that carry their writer's pid.
 */

/**
 * True when `pid` names a running process (signal 0 succeeds, or is refused with EPERM: it exists
 * but belongs to another user). False for non-positive or non-integer pids.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
