import { useMemo } from 'react';

/** An email's HTML without its scripts: the sandbox would block them anyway, but blocked scripts log console errors. */
function withoutScripts(html: string): string {
  if (!/<script/i.test(html)) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('script').forEach((el) => el.remove());
  return `<!doctype html>${doc.documentElement.outerHTML}`;
}

/**
 * Mail HTML in a sandboxed frame (`sandbox=""`: no scripts, forms, pop-ups or same-origin access), from srcdoc. A new
 * document gets a new frame: changing the srcdoc of a frame in place navigates it, which adds an entry to the
 * browser's history (Back then steps through old previews) and, in Chromium, can leave the new document unpainted.
 */
export function MailFrame({ title, html }: { title: string; html: string }) {
  const doc = useMemo(() => withoutScripts(html), [html]);
  return <iframe key={doc} title={title} sandbox="" srcDoc={doc} className="preview-frame" />;
}
