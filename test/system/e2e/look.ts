/**
 * Checks of how a page reads, run in the page (page.evaluate): words split across lines, and selects or buttons
 * squeezed against their neighbours. look.e2e.ts holds the whole dashboard to them; other files their own pages.
 */

/** Text of headers, labels, buttons and badges where a word runs over two lines (split mid-word). */
export const SPLIT_WORDS = `(() => {
  const split = [];
  for (const el of document.querySelectorAll('th, h1, h2, h3, label, button, .badge, dt, .sidebar a, .legend li')) {
    if (el.offsetParent === null) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      for (const match of text.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size < 2) continue;
        split.push(match[0] + ' in <' + el.tagName.toLowerCase() + '> ' + el.textContent.trim().slice(0, 40));
      }
    }
  }
  return split;
})()`;

/** Selects too narrow for their longest option, and buttons closer than 4px to a field beside or above them. */
export const CRAMPED = `(() => {
  const out = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('main select')) {
    if (s.offsetParent === null || s.options.length === 0) continue;
    const cs = getComputedStyle(s);
    ctx.font = cs.font;
    const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 12;
    const name = s.id || s.name || s.getAttribute('aria-label');
    if (widest <= room) continue;
    out.push('select ' + name + ': ' + Math.round(widest) + 'px of text in ' + Math.round(room) + 'px');
  }
  const fields = [...document.querySelectorAll('main input, main select, main textarea')]
    .filter((e) => e.offsetParent !== null && !['checkbox', 'radio', 'hidden'].includes(e.type))
    .map((e) => e.getBoundingClientRect());
  for (const b of document.querySelectorAll('main button')) {
    if (b.offsetParent === null) continue;
    const r = b.getBoundingClientRect();
    for (const f of fields) {
      const beside = r.top < f.bottom && f.top < r.bottom;
      const above = r.left < f.right && f.left < r.right;
      const gapX = Math.max(f.left - r.right, r.left - f.right);
      const gapY = Math.max(f.top - r.bottom, r.top - f.bottom);
      if (!(beside && gapX < 4) && !(above && gapY < 4)) continue;
      out.push('button "' + b.textContent.trim().slice(0, 30) + '" touches a field');
    }
  }
  return out;
})()`;
