/**
 * @module web/main
 * The page of `loci ui`: a header with the sections and one view per URL. Stored text is only ever
 * rendered as text (Preact escapes it) and the server's Content-Security-Policy runs no inline
 * script, so a drawer holding `<script>` shows as text.
 */
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { api } from './api';
import { Link, navigate, useLocation } from './router';
import { useLoad } from './util';
import { AgentsPage } from './pages/agents';
import { DrawerPage } from './pages/drawer';
import { KgIndexPage, KgPage } from './pages/kg';
import { MemoryPage } from './pages/memory';
import { PalacePage } from './pages/palace';
import { SearchPage } from './pages/search';
import { StatusPage } from './pages/status';

const SECTIONS: [string, string][] = [
  ['/palace', 'Palace'],
  ['/search', 'Search'],
  ['/kg', 'Graph'],
  ['/memory', 'Memory'],
  ['/agents', 'Agents'],
  ['/status', 'Status'],
];

function View(props: { url: URL }) {
  const path = props.url.pathname;
  const rest = (prefix: string) => decodeURIComponent(path.slice(prefix.length));
  if (path === '/' || path === '/palace') return <PalacePage url={props.url} />;
  if (path === '/search') return <SearchPage url={props.url} />;
  if (path.startsWith('/drawer/')) return <DrawerPage id={rest('/drawer/')} />;
  if (path === '/kg') return <KgIndexPage url={props.url} />;
  if (path.startsWith('/kg/')) return <KgPage entity={rest('/kg/')} url={props.url} />;
  if (path === '/memory') return <MemoryPage url={props.url} />;
  if (path === '/agents') return <AgentsPage url={props.url} />;
  if (path === '/status') return <StatusPage />;
  return <p class="error">No page at {path}.</p>;
}

function App() {
  const url = useLocation();
  const [session] = useLoad(() => api.session(), []);
  useEffect(() => {
    // `/` anywhere but in a text field goes to the search box.
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (e.key !== '/' || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
      e.preventDefault();
      if (location.pathname !== '/search') navigate('/search');
      setTimeout(() => document.getElementById('q')?.focus(), 0);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  const section = '/' + (url.pathname.split('/')[1] || 'palace');
  const current = section === '/drawer' ? '/palace' : section;
  return (
    <>
      <header class="top">
        <Link href="/palace" class="brand">
          loci
        </Link>
        <nav aria-label="sections">
          {SECTIONS.map(([href, label]) => (
            <Link
              key={href}
              href={href}
              class={current === href ? 'active' : ''}
              aria-current={current === href ? 'page' : undefined}
            >
              {label}
            </Link>
          ))}
        </nav>
        {session.data && (
          <span class="home" title={`memory files: ${session.data.memoryDir}`}>
            {session.data.home}
            {session.data.version ? ` · v${session.data.version}` : ''}
          </span>
        )}
      </header>
      <main id="content">
        <View key={url.pathname} url={url} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
