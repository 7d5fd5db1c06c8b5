// The variables a template renders with, built the same way for /v1/send, campaigns and workflows.

/** The contact fields templates see. */
export interface VariableContact {
  id: string | null;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * The request's (or step's) `data` over the contact's `data`, plus `email`, `contact` and `unsubscribeUrl`; a key with
 * a fallback (a declared contact property's) and no value (absent, null or "") renders the fallback.
 */
export function templateVariables(opts: {
  contact: VariableContact;
  data?: Record<string, unknown> | undefined;
  unsubscribeUrl: string | undefined;
  /** The message's page in a browser (`{{viewInBrowserUrl}}`). */
  viewInBrowserUrl?: string | undefined;
  /** Values of keys the contact and the data leave empty. */
  fallbacks?: Record<string, unknown> | undefined;
}): Record<string, unknown> {
  const { contact } = opts;
  const given: Record<string, unknown> = { ...contact.data, ...opts.data };
  for (const [key, value] of Object.entries(opts.fallbacks ?? {})) {
    if (given[key] === undefined || given[key] === null || given[key] === '') given[key] = value;
  }
  return {
    ...given,
    email: contact.email,
    contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
    unsubscribeUrl: opts.unsubscribeUrl,
    manageUrl: manageUrlOf(opts.unsubscribeUrl),
    viewInBrowserUrl: opts.viewInBrowserUrl,
  };
}

/**
 * The preference centre's URL of a message (`{{manageUrl}}`): the same signed token as its unsubscribe link, which
 * already lets the recipient unsubscribe and resubscribe; the page adds the project's topics.
 */
export function manageUrlOf(unsubscribeUrl: string | undefined): string | undefined {
  return unsubscribeUrl?.replace(/\/unsubscribe\/([^/]+)$/, '/manage/$1');
}
