import { useMemo } from 'react';

/** An email's HTML without its scripts: the sandbox would block them anyway, but blocked scripts log console errors. */
function withoutScripts(html: string): string {
  if (!/<script/i.test(html)) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.querySelectorAll('script').forEach((el) => el.remove());
  return `<!doctype html>${doc.documentElement.outerHTML}`;
}

/** Mail HTML in a sandboxed frame (`sandbox=""`: no scripts, forms, pop-ups or same-origin access), from srcdoc. */
export function MailFrame({ title, html }: { title: string; html: string }) {
  const doc = useMemo(() => withoutScripts(html), [html]);
  return <iframe title={title} sandbox="" srcDoc={doc} className="preview-frame" />;
}
