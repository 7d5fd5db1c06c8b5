import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

// A small history router: pages live under /app (the API owns /contacts, /campaigns… at the root),
// and the server answers index.html for them so a reload lands on the same page.
export const APP_BASE = '/app';

/**
 * The pages of signing in that live outside /app, at the addresses Herald prints and mails (`/setup#…`,
 * `/invite#…`, `/reset-password#…`), and the page that asks for a reset link.
 */
export const OUTSIDE_APP: readonly string[] = ['/setup', '/invite', '/reset-password', '/forgot-password'];

/** Whether a browser path is one of the pages outside /app. */
export const isOutsideApp = (path: string) => OUTSIDE_APP.includes(path.replace(/\/+$/, '') || '/');

const CHANGE = 'herald:navigate';

function subscribe(callback: () => void): () => void {
  window.addEventListener('popstate', callback);
  window.addEventListener(CHANGE, callback);
  return () => {
    window.removeEventListener('popstate', callback);
    window.removeEventListener(CHANGE, callback);
  };
}

/** The current path, e.g. `/app/contacts/123`. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The current query string (`?status=SENT&cursor=…`), for pages whose filters live in the address. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one (typing in a search box). */
  replace?: boolean;
  /** Stay where the page is scrolled (a list's filters and pages change in place). */
  keepScroll?: boolean;
}

/** Goes to a dashboard path (`/contacts` → `/app/contacts`), query string included. */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const url = appUrl(to);
  if (url === window.location.pathname + window.location.search) return;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  if (!options.keepScroll) window.scrollTo(0, 0);
  window.dispatchEvent(new Event(CHANGE));
}

export function appUrl(to: string): string {
  if (isOutsideApp(to.split(/[?#]/)[0]!)) return to;
  return to.startsWith(APP_BASE) ? to : `${APP_BASE}${to === '/' ? '' : to}`;
}

/** Params of `pattern` (`/contacts/:id`) in a dashboard path, or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const relative = path.startsWith(APP_BASE) ? path.slice(APP_BASE.length) || '/' : path;
  const want = pattern.split('/').filter(Boolean);
  const have = relative.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(have[i]!);
    else if (w !== have[i]) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A real link (keyboard, middle-click, copy address) that navigates in place. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const href = appUrl(to);
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
