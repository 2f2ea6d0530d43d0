/**
 * @module web/api
 * Typed calls to `loci ui`'s HTTP API. The answer types are the server's own (`src/ui/api-types.ts`,
 * built from the library's types), imported as types only: nothing of the server reaches the page.
 */
import type {
  ApiError,
  CorrectBody,
  DrawerPage,
  DrawerView,
  HookView,
  InvalidateBody,
  KgIndex,
  KgView,
  MemoryEditBody,
  MemoryList,
  MemoryView,
  MemoryWriteAnswer,
  PalaceTree,
  RecallView,
  SessionInfo,
  StatusView,
  UiSearchResult,
  WakeUpView,
} from '../src/ui/api-types.js';

/** The CSRF token the server put in the page. */
const csrf = document.querySelector('meta[name="loci-csrf"]')?.getAttribute('content') ?? '';

/** An API error: the catalogue code and the library's message. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function qs(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? { 'x-loci-csrf': csrf } : { 'content-type': 'application/json', 'x-loci-csrf': csrf },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  const json = (await res.json()) as T | ApiError;
  if (!res.ok) {
    const e = (json as ApiError).error;
    throw new ApiFailure(e?.code ?? String(res.status), e?.message ?? res.statusText);
  }
  return json as T;
}

const enc = encodeURIComponent;

/** Every endpoint, typed. */
export const api = {
  session: () => call<SessionInfo>('GET', '/api/session'),
  palace: () => call<PalaceTree>('GET', '/api/palace'),
  drawers: (q: { wing?: string; room?: string; offset?: number; limit?: number }) =>
    call<DrawerPage>('GET', `/api/drawers${qs(q)}`),
  drawer: (id: string) => call<DrawerView>('GET', `/api/drawer/${enc(id)}`),
  search: (q: Query, signal?: AbortSignal) => call<UiSearchResult>('GET', `/api/search${qs(q)}`, undefined, signal),
  kgIndex: (q: { prefix?: string; cursor?: string }) => call<KgIndex>('GET', `/api/kg${qs(q)}`),
  kg: (entity: string, asOf?: string) => call<KgView>('GET', `/api/kg/${enc(entity)}${qs({ asOf })}`),
  invalidate: (b: InvalidateBody) => call<unknown>('POST', '/api/kg/invalidate', b),
  correct: (b: CorrectBody) => call<unknown>('POST', '/api/kg/correct', b),
  memories: () => call<MemoryList>('GET', '/api/memory'),
  memory: (name: string) => call<MemoryView>('GET', `/api/memory/${enc(name)}`),
  editMemory: (name: string, b: MemoryEditBody) => call<MemoryWriteAnswer>('PUT', `/api/memory/${enc(name)}`, b),
  forgetMemory: (name: string) => call<MemoryWriteAnswer>('DELETE', `/api/memory/${enc(name)}`),
  wakeUp: (wing?: string) => call<WakeUpView>('GET', `/api/agents/wake-up${qs({ wing })}`),
  recall: (prompt: string) => call<RecallView>('GET', `/api/agents/recall${qs({ prompt })}`),
  hooks: () => call<HookView>('GET', '/api/agents/hooks'),
  status: () => call<StatusView>('GET', '/api/status'),
};
