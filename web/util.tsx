/**
 * @module web/util
 * Shared bits of the pages: data loading with error display, sizes, dates, a copy button and the
 * highlighter. Stored text is always rendered as text nodes (Preact escapes it): nothing here
 * sets HTML from data.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from './api';

/** The result of an async load: data, error or still loading. */
export type Loaded<T> = { data: T; error: null } | { data: null; error: string | null };

/** Loads `fn()` whenever `deps` change; the returned `reload` refreshes and keeps showing the old data meanwhile. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null });
  const [tick, setTick] = useState(0);
  const lastTick = useRef(tick);
  useEffect(() => {
    let live = true;
    if (lastTick.current === tick) setState({ data: null, error: null });
    lastTick.current = tick;
    fn().then(
      (data) => live && setState({ data, error: null }),
      (e: unknown) => live && setState({ data: null, error: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [state, () => setTick((t) => t + 1)];
}

export function errorText(e: unknown): string {
  if (e instanceof ApiFailure) return `${e.message} [${e.code}]`;
  return e instanceof Error ? e.message : String(e);
}

/** Shows a load: a spinner line, an error, or the children built from the data. */
export function Show<T>(props: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (props.state.error)
    return (
      <p class="error" role="alert">
        {props.state.error}
      </p>
    );
  if (props.state.data === null) return <p class="muted">loading…</p>;
  return <>{props.children(props.state.data)}</>;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export const num = (n: number) => n.toLocaleString('en');

export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '—';
}

/** A button copying `text` to the clipboard. */
export function Copy(props: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(props.text).then(() => {
      setDone(true);
      setTimeout(() => setDone(false), 1200);
    });
  };
  return (
    <button type="button" class="copy" title={`copy ${props.text}`} onClick={copy}>
      {done ? 'copied' : (props.label ?? props.text)}
    </button>
  );
}

/** `text` with the [start, end) spans wrapped in `<mark>` (text nodes only). */
export function Highlight(props: { text: string; spans: readonly [number, number][] }) {
  const out: ComponentChildren[] = [];
  let pos = 0;
  for (const [s, e] of props.spans) {
    if (s < pos) continue;
    out.push(props.text.slice(pos, s), <mark>{props.text.slice(s, e)}</mark>);
    pos = e;
  }
  out.push(props.text.slice(pos));
  return <>{out}</>;
}

/** `wing/room` and line range of a drawer, as the CLI prints them. */
export function where(d: { wing: string; room: string; lineStart?: number | null; lineEnd?: number | null }): string {
  const lines = d.lineStart != null ? `  L${d.lineStart}–${d.lineEnd ?? d.lineStart}` : '';
  return `${d.wing}/${d.room}${lines}`;
}
