/**
 * @module web/pages/kg
 * The knowledge graph: `/kg` lists entities; `/kg/<entity>?asOf=YYYY-MM-DD` draws each fact about
 * the entity as a span from valid-from to valid-to on one time axis, marks the facts valid at the
 * as-of date (a slider), links each fact to the drawers it was read from, and closes (invalidates)
 * or corrects a fact through the library.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Fact } from '../../src/ui/api-types.js';
import { api } from '../api';
import { Link, navigate } from '../router';
import { Show, day, errorText, num, useLoad } from '../util';

const DAY = 86_400_000;

export function KgIndexPage(props: { url: URL }) {
  const prefix = props.url.searchParams.get('prefix') ?? '';
  const cursor = props.url.searchParams.get('cursor') ?? '';
  const [state] = useLoad(() => api.kgIndex({ prefix, cursor }), [prefix, cursor]);
  /** `/kg` with this prefix and cursor (a page of 100 entities is addressable like every view). */
  const href = (c: string) => {
    const p = new URLSearchParams();
    if (prefix) p.set('prefix', prefix);
    if (c) p.set('cursor', c);
    const s = p.toString();
    return `/kg${s ? `?${s}` : ''}`;
  };
  return (
    <section>
      <h1>Knowledge graph</h1>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const v = (new FormData(e.currentTarget as HTMLFormElement).get('entity') as string).trim();
          if (v) navigate(`/kg/${encodeURIComponent(v)}`);
        }}
      >
        <input name="entity" placeholder="entity name or alias" aria-label="entity" />
        <button type="submit">open</button>
      </form>
      <Show state={state}>
        {(k) => (
          <>
            <p class="muted">
              {num(k.stats.entities)} entities · {num(k.stats.facts)} facts ({num(k.stats.openFacts)} open)
              {prefix ? ` · names starting with “${prefix}”` : ''}
            </p>
            <ul class="chips">
              {k.entities.map((e) => (
                <li key={e.id}>
                  <Link href={`/kg/${encodeURIComponent(e.name)}`}>{e.name}</Link>
                  <span class="muted small"> {e.type}</span>
                </li>
              ))}
            </ul>
            <div class="pager">
              {cursor && <Link href={href('')}>← first</Link>}
              {k.next !== null && (
                <Link href={href(k.next)} class="next">
                  next →
                </Link>
              )}
            </div>
          </>
        )}
      </Show>
    </section>
  );
}

function FactRow(props: {
  f: Fact;
  valid: boolean;
  x: (iso: string | null, end: boolean) => number;
  sources: Record<string, string>;
  onChange: () => void;
}) {
  const { f } = props;
  const [mode, setMode] = useState<'view' | 'correct'>('view');
  const [value, setValue] = useState(f.objectName);
  const [err, setErr] = useState<string | null>(null);
  const left = props.x(f.validFrom, false);
  const right = props.x(f.validTo, true);
  const act = (p: Promise<unknown>) =>
    p.then(
      () => {
        setMode('view');
        props.onChange();
      },
      (e: unknown) => setErr(errorText(e)),
    );
  const triple = { subject: f.subjectName, predicate: f.predicate, object: f.objectName };
  return (
    <li class={`fact ${props.valid ? 'valid' : ''} ${f.validTo ? 'closed' : 'open'}`}>
      <div class="fact-text">
        <strong>{f.subjectName}</strong> <span class="pred">{f.predicate}</span>{' '}
        {f.literal ? (
          <em>{f.objectName}</em>
        ) : (
          <Link href={`/kg/${encodeURIComponent(f.objectName)}`}>{f.objectName}</Link>
        )}
        <span class="muted small">
          {' '}
          {day(f.validFrom)} → {f.validTo ? day(f.validTo) : 'now'}
        </span>
      </div>
      <div class="span-track" aria-hidden="true">
        <span class="span" style={{ left: `${left}%`, width: `${Math.max(0.8, right - left)}%` }} />
      </div>
      <div class="fact-actions">
        {f.sources.map((id) => (
          <Link key={id} href={`/drawer/${id}`} class="small" title={props.sources[id] ?? id}>
            {id}
          </Link>
        ))}
        {!f.validTo && mode === 'view' && (
          <>
            <button type="button" onClick={() => void act(api.invalidate(triple))}>
              invalidate
            </button>
            <button type="button" onClick={() => setMode('correct')}>
              correct
            </button>
          </>
        )}
        {mode === 'correct' && (
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              void act(api.correct({ ...triple, newObject: value, literal: f.literal }));
            }}
          >
            <input
              value={value}
              onInput={(e) => setValue((e.target as HTMLInputElement).value)}
              aria-label="new value"
            />
            <button type="submit">save</button>
            <button type="button" onClick={() => setMode('view')}>
              cancel
            </button>
          </form>
        )}
        {err && <span class="error">{err}</span>}
      </div>
    </li>
  );
}

export function KgPage(props: { entity: string; url: URL }) {
  const asOf = props.url.searchParams.get('asOf') ?? undefined;
  const [state, reload] = useLoad(() => api.kg(props.entity, asOf), [props.entity, asOf]);
  const [slider, setSlider] = useState<number | null>(null);
  useEffect(() => {
    if (slider === null) return;
    const t = setTimeout(() => {
      const d = new Date(slider).toISOString().slice(0, 10);
      navigate(`/kg/${encodeURIComponent(props.entity)}?asOf=${d}`, true);
    }, 250);
    return () => clearTimeout(t);
  }, [slider]);
  return (
    <Show state={state}>
      {(k) => {
        if (!k.entity) return <p class="error">No entity named “{props.entity}”.</p>;
        const times = k.timeline.flatMap((f) => [f.validFrom, f.validTo]).filter((t): t is string => !!t);
        const now = Date.now();
        const lo = Math.min(now - 30 * DAY, ...times.map((t) => Date.parse(t)));
        const hi = now;
        const x = (iso: string | null, end: boolean) =>
          iso ? (100 * (Date.parse(iso) - lo)) / (hi - lo) : end ? 100 : 0;
        const at = slider ?? (asOf ? Date.parse(asOf) : now);
        const valid = new Set(k.validIds);
        return (
          <section>
            <h1>
              {k.entity.name} <span class="muted small">{k.entity.type}</span>
            </h1>
            {k.entity.aliases.length > 0 && <p class="muted">also: {k.entity.aliases.join(', ')}</p>}
            <label class="asof">
              as of <strong>{new Date(at).toISOString().slice(0, 10)}</strong>
              <input
                type="range"
                min={lo}
                max={hi}
                step={DAY}
                value={at}
                aria-label="as of"
                onInput={(e) => setSlider(Number((e.target as HTMLInputElement).value))}
              />
            </label>
            <div class="axis">
              <span>{new Date(lo).toISOString().slice(0, 10)}</span>
              <span>today</span>
            </div>
            <ul class="facts">
              <li class="cursor" aria-hidden="true" style={{ left: `${(100 * (at - lo)) / (hi - lo)}%` }} />
              {k.timeline.map((f) => (
                <FactRow key={f.id} f={f} valid={valid.has(f.id)} x={x} sources={k.sources} onChange={reload} />
              ))}
            </ul>
            {k.timeline.length === 0 && <p class="muted">No facts about this entity.</p>}
            {k.more && <p class="muted">Only the first 500 facts are drawn.</p>}
          </section>
        );
      }}
    </Show>
  );
}
