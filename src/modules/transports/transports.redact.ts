// A relay's reply may quote what it was sent (a refused AUTH echoing the credentials): before a reply is shown, each
// secret is cut out of it in every form it travels in (as is, URL-encoded in a URL, base64 in AUTH LOGIN and
// AUTH PLAIN), padded or not.

export const REDACTED_TEXT = '[redacted]';

function base64Forms(value: string): string[] {
  const padded = Buffer.from(value, 'utf8').toString('base64');
  return [padded, padded.replace(/=+$/, '')];
}

/** `text` without any form of `secrets` (`username`: the AUTH PLAIN form, which carries it with the password). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[], username?: string): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    for (const form of base64Forms(secret)) forms.add(form);
    for (const form of base64Forms(`\u0000${username ?? ''}\u0000${secret}`)) forms.add(form);
  }
  let out = text;
  // Longest first: a form that holds another is cut out whole.
  for (const form of [...forms].filter(Boolean).sort((a, b) => b.length - a.length))
    out = out.split(form).join(REDACTED_TEXT);
  return out;
}
