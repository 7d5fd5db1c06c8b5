// Stylesheets a rendered message would fetch from other hosts, left out of the dashboard's preview.

const REMOTE_STYLES = [/<link\b[^>]*\bhref=["']?https?:[^>]*>/gi, /@import\s+url\(\s*["']?https?:[^)]*\)\s*;?/gi];

/**
 * The HTML without the stylesheets it would fetch from other hosts (MJML's default web font): the dashboard's policy
 * blocks them in the preview anyway, so the preview shows the fallback font, as many mail apps do.
 */
export function withoutRemoteStyles(html: string): { html: string; removed: boolean } {
  const cleaned = REMOTE_STYLES.reduce((out, pattern) => out.replace(pattern, ''), html);
  return { html: cleaned, removed: cleaned !== html };
}
