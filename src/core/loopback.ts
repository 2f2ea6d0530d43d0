/**
 * @module core/loopback
 * Whether a host name is the loopback interface — the rule both HTTP front ends (`loci mcp --http`,
 * `loci ui`) use to decide that no token is needed and which `Host` headers to accept.
 */

/** True for 127.0.0.0/8, ::1 (bracketed or not) and localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
