import { useMemo, useState } from 'react';

/**
 * The Content-Security-Policy at the top of the frame's document: nothing loads but inline styles and embedded
 * (data:) images until the user asks for remote images. The frame is also sandboxed without scripts, and
 * inherits the dashboard's own policy (https images at most).
 */
function policy(remoteImages: boolean): string {
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:${remoteImages ? ' https:' : ''}`;
}

/**
 * The message's HTML with every image that would load from elsewhere (http, https; cid: parts are downloads
 * here) taken out of `src`/`srcset` unless `remoteImages`: the policy would block them anyway, this keeps the
 * sender from learning the message was opened without a single blocked request. Answers how many it held back.
 */
function prepare(html: string, remoteImages: boolean): { doc: string; blocked: number } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let blocked = 0;
  for (const img of Array.from(doc.querySelectorAll('img[src], img[srcset], source[srcset]'))) {
    const src = img.getAttribute('src') ?? '';
    const external = /^\s*(https?:|\/\/|cid:)/i.test(src) || img.hasAttribute('srcset');
    if (!external || (remoteImages && !/^\s*cid:/i.test(src))) continue;
    blocked += 1;
    img.removeAttribute('srcset');
    if (src) img.setAttribute('data-blocked-src', src);
    img.removeAttribute('src');
  }
  for (const el of Array.from(doc.querySelectorAll('[background]'))) {
    if (remoteImages) continue;
    blocked += 1;
    el.removeAttribute('background');
  }
  const head = `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy(remoteImages)}">`;
  return {
    doc: `<!doctype html><html><head>${head}${doc.head.innerHTML}</head><body>${doc.body.innerHTML}</body></html>`,
    blocked,
  };
}

/**
 * Received HTML, which is untrusted: a sandboxed frame (no scripts, forms or same-origin), remote images held back
 * until asked.
 */
export function UntrustedHtml({ html }: { html: string }) {
  const [images, setImages] = useState(false);
  const { doc, blocked } = useMemo(() => prepare(html, images), [html, images]);
  return (
    <div className="untrusted-html">
      {!images && blocked > 0 && (
        <p className="hint">
          {blocked} remote image{blocked === 1 ? ' is' : 's are'} blocked: loading them tells the sender you opened the
          message.{' '}
          <button type="button" className="secondary" onClick={() => setImages(true)}>
            Show images
          </button>
        </p>
      )}
      <iframe key={String(images)} title="Message HTML" sandbox="" srcDoc={doc} className="preview-frame" />
    </div>
  );
}
