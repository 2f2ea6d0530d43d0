/**
 * @module web/router
 * A small history router: the URL is the state (`/search?q=…`, `/drawer/<id>`, `/kg/<entity>`), so
 * every view can be bookmarked, shared and reloaded. Links are real `<a href>` (keyboard and
 * middle-click work); a plain click is turned into `history.pushState`.
 */
import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/** Goes to `href` inside the app (`replace` keeps the history entry, for as-you-type search). */
export function navigate(href: string, replace = false): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  for (const l of listeners) l();
}

/** The current location; re-renders on navigation and on back/forward. */
export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return url;
}

/** An in-app link. */
export function Link(props: { href: string; children: ComponentChildren } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { href, children, ...rest } = props;
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
    scrollTo(0, 0);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
