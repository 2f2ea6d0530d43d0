/**
 * @module web/pages/search
 * As-you-type search (`/search?q=…&wing=&room=&hall=&since=&until=`): each hit shows its excerpt
 * with the query words marked, every signal's contribution to its fused score as a bar (what
 * `loci search --explain` prints), and its id to copy. Keys: `/` focuses the box, ↓/↑ move between
 * hits, Enter opens one.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { UiHit, UiSearchResult } from '../../src/ui/api-types.js';
import { api } from '../api';
import { Link, navigate } from '../router';
import { Copy, Highlight, errorText, num, useLoad, where } from '../util';

/** Halls the miners and writers assign (conversations: the first six; diary and summaries: their own). */
const HALLS = ['', 'facts', 'events', 'discoveries', 'preferences', 'advice', 'general', 'diary', 'summary'];
type Filters = Record<'q' | 'wing' | 'room' | 'hall' | 'since' | 'until', string>;

function fromUrl(url: URL): Filters {
  const g = (k: string) => url.searchParams.get(k) ?? '';
  return { q: g('q'), wing: g('wing'), room: g('room'), hall: g('hall'), since: g('since'), until: g('until') };
}

function toHref(f: Filters): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) p.set(k, v);
  const s = p.toString();
  return `/search${s ? `?${s}` : ''}`;
}

/** Signal bars: each signal's contribution, scaled to the best fused score of the page. */
function Signals(props: { hit: UiHit; scale: number }) {
  const ex = props.hit.explain;
  if (!ex) return null;
  const rows = Object.entries(ex.signals).filter(([, s]) => s.contribution !== 0 || s.rank !== null);
  return (
    <div class="signals" aria-label="signal contributions">
      {rows.map(([name, s]) => (
        <div class="signal" key={name} title={`rank ${s.rank ?? '—'}, score ${s.score?.toFixed(3) ?? '—'}`}>
          <span class="sname">{name}</span>
          <span class="bar">
            <span
              class={`fill s-${name}`}
              style={{ width: `${Math.max(1, Math.min(100, (100 * Math.max(0, s.contribution)) / props.scale))}%` }}
            />
          </span>
          <span class="sval">
            +{s.contribution.toFixed(3)}
            <span class="muted"> #{s.rank ?? '—'}</span>
          </span>
        </div>
      ))}
      <div class="signal fused">
        <span class="sname">fused</span>
        <span class="sval">{ex.fused.toFixed(3)}</span>
      </div>
    </div>
  );
}

export function SearchPage(props: { url: URL }) {
  const [f, setF] = useState<Filters>(() => fromUrl(props.url));
  const [res, setRes] = useState<UiSearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tree] = useLoad(() => api.palace(), []);
  const box = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => box.current?.focus(), []);
  useEffect(() => {
    // The URL follows the box (replace: typing does not fill the history).
    if (toHref(f) !== location.pathname + location.search) navigate(toHref(f), true);
    const ctl = new AbortController();
    const t = setTimeout(() => {
      if (!f.q.trim()) {
        setRes(null);
        return;
      }
      setBusy(true);
      api.search({ ...f, limit: 20 }, ctl.signal).then(
        (r) => {
          setRes(r);
          setError(null);
          setBusy(false);
        },
        (e: unknown) => {
          if ((e as Error).name === 'AbortError') return;
          setError(errorText(e));
          setBusy(false);
        },
      );
    }, 120);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [f.q, f.wing, f.room, f.hall, f.since, f.until]);

  const set = (k: keyof Filters) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const scale = Math.max(1e-9, ...(res?.hits ?? []).map((h) => h.explain?.fused ?? h.score));

  /** ↓/↑ move the focus between hits (and from the box to the first hit). */
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a.hit-link') ?? [])];
    if (links.length === 0) return;
    const i = links.indexOf(document.activeElement as HTMLAnchorElement);
    e.preventDefault();
    if (e.key === 'ArrowDown') links[Math.min(links.length - 1, i + 1)]!.focus();
    else if (i <= 0) box.current?.focus();
    else links[i - 1]!.focus();
  };

  return (
    <div onKeyDown={onKey}>
      <form class="searchbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <input
          ref={box}
          id="q"
          type="search"
          placeholder="Search everything mined…"
          aria-label="search"
          value={f.q}
          onInput={set('q')}
          autocomplete="off"
        />
        <div class="filters">
          <label>
            wing
            <select value={f.wing} onChange={set('wing')}>
              <option value="">any</option>
              {tree.data?.wings.map((w) => (
                <option key={w.name} value={w.name}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            room
            <input value={f.room} onInput={set('room')} placeholder="any" size={10} />
          </label>
          <label>
            hall
            <select value={f.hall} onChange={set('hall')}>
              {HALLS.map((h) => (
                <option key={h} value={h}>
                  {h || 'any'}
                </option>
              ))}
            </select>
          </label>
          <label>
            from
            <input type="date" value={f.since} onInput={set('since')} />
          </label>
          <label>
            to
            <input type="date" value={f.until} onInput={set('until')} />
          </label>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {res && (
        <p class="muted" aria-live="polite">
          {num(res.hits.length)} hits in {res.tookMs.toFixed(0)} ms · signals: {res.signals.join(', ')}
          {res.fallback ? ` · vectors ${res.fallback.split(' (')[0]}` : ''}
          {busy ? ' · …' : ''}
        </p>
      )}
      {!res && !f.q && (
        <p class="muted">Type to search. Keys: / focuses the box, ↓ ↑ move between hits, Enter opens.</p>
      )}
      <ol class="hits" ref={list} data-query={res?.query ?? ''}>
        {res?.hits.map((h) => (
          <li class="hit" key={h.id}>
            <div class="hit-head">
              <Link class="hit-link" href={`/drawer/${h.id}`}>
                {where({ wing: h.wing, room: h.room, lineStart: h.lines?.[0], lineEnd: h.lines?.[1] })}
              </Link>
              <span class="muted small">
                {(h.contentDate ?? h.filedAt).slice(0, 10)} · {h.hall ?? 'no hall'} · {num(h.chars)} ch
              </span>
              <Copy text={h.id} />
            </div>
            {h.source && <div class="muted small src">{h.source}</div>}
            <pre class="excerpt">
              <Highlight text={h.excerpt} spans={h.spans} />
            </pre>
            <Signals hit={h} scale={scale} />
          </li>
        ))}
      </ol>
    </div>
  );
}
