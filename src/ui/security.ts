/**
 * @module ui/security
 * The web UI's guards, as Hono middleware:
 * - **Host** (DNS rebinding): on a loopback bind the `Host` header must name a loopback address and
 *   the server's port, so a page of another site resolved to 127.0.0.1 cannot read the API.
 * - **Token**: with a token (required off loopback), every request carries it — the `loci_ui`
 *   cookie (set, HttpOnly and SameSite=Strict, when the printed `?token=` URL is opened once) or
 *   `Authorization: Bearer <token>`; else 401.
 * - **CSRF** on every write (`POST`, `PUT`, `PATCH`, `DELETE`): the `Origin` header must be this
 *   server's own origin and the `X-Loci-CSRF` header must hold the per-process token the page
 *   received in its HTML (a cross-site page can read neither); else 403.
 * - **Headers**: a Content-Security-Policy allowing scripts and styles from this origin only (an
 *   injected inline `<script>` never runs, on top of the page escaping every stored text), no
 *   framing, no referrer, no MIME sniffing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { isLoopback } from '../core/loopback.js';

const digest = (s: string) => createHash('sha256').update(s).digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** The header the page sends its CSRF token in. */
export const CSRF_HEADER = 'x-loci-csrf';
/** The cookie holding the access token (token mode only). */
const TOKEN_COOKIE = 'loci_ui';

/** The Content-Security-Policy of every answer. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

function forbidden(message: string, status: 401 | 403) {
  return new Response(JSON.stringify({ error: { code: status === 401 ? 'UNAUTHORISED' : 'FORBIDDEN', message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** The guards, in order: headers, host, token, CSRF. `port()` is read per request (known once listening). */
export function guards(opts: { host: string; port: () => number; token: string; csrf: string }): MiddlewareHandler {
  const loopback = isLoopback(opts.host);
  return async (c, next) => {
    const url = new URL(c.req.url);
    const hostHeader = c.req.header('host') ?? '';
    if (loopback) {
      let h: URL | undefined;
      try {
        h = new URL(`http://${hostHeader}`);
      } catch {
        h = undefined;
      }
      if (!h || !isLoopback(h.hostname) || Number(h.port || 80) !== opts.port())
        return forbidden(`forbidden host ${JSON.stringify(hostHeader.slice(0, 100))}: use the printed URL`, 403);
    }
    if (opts.token) {
      const q = url.searchParams.get('token');
      if (q !== null && same(q, opts.token) && c.req.method === 'GET') {
        url.searchParams.delete('token');
        return new Response(null, {
          status: 303,
          headers: {
            location: url.pathname + url.search,
            'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(opts.token)}; HttpOnly; SameSite=Strict; Path=/`,
          },
        });
      }
      const auth = c.req.header('authorization');
      const fromCookie = cookie(c.req.header('cookie'), TOKEN_COOKIE);
      const ok =
        (auth !== undefined && same(auth, `Bearer ${opts.token}`)) ||
        (fromCookie !== undefined && same(fromCookie, opts.token));
      if (!ok) return forbidden('unauthorised: open the URL `loci ui` printed (it carries the token)', 401);
    }
    if (!['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin !== `http://${hostHeader}` && origin !== `https://${hostHeader}`)
        return forbidden('forbidden: writes must come from the page itself (Origin does not match)', 403);
      const sent = c.req.header(CSRF_HEADER) ?? '';
      if (!same(sent, opts.csrf)) return forbidden('forbidden: missing or wrong CSRF token; reload the page', 403);
    }
    await next();
    c.res.headers.set('content-security-policy', CSP);
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('referrer-policy', 'no-referrer');
    c.res.headers.set('x-frame-options', 'DENY');
    return undefined;
  };
}
