// The pages of a single sign-on that did not sign anyone in: what happened, and a link back to Herald's sign-in.
import { escapeHtml as escape, hostedPage as page } from '../../lib/hosted-page.ts';

/**
 * Why a sign-in through the issuer was refused: nobody may sign in as the address (`no-account`), the issuer does
 * not vouch for it (`unverified`) or gave none (`no-email`); the callback belongs to no live attempt of this
 * browser (`attempt`: wrong or missing state, expired, used); the issuer answered with an error (`issuer-error`) or
 * its answer failed the checks (`exchange`); or the issuer could not be reached (`unreachable`).
 */
export type RefusalReason =
  | 'no-account'
  | 'unverified'
  | 'no-email'
  | 'attempt'
  | 'issuer-error'
  | 'exchange'
  | 'unreachable';

const STATUS: Record<RefusalReason, 400 | 403 | 503> = {
  'no-account': 403,
  unverified: 403,
  'no-email': 403,
  attempt: 400,
  'issuer-error': 400,
  exchange: 400,
  unreachable: 503,
};

/** What a refusal page shows besides its reason: the address, or the issuer's error. */
export interface RefusalDetail {
  email?: string;
  error?: string;
  description?: string;
}

/** A sign-in that ends on a refusal page; the route renders it. */
export class Refusal extends Error {
  override name = 'Refusal';
  readonly status: 400 | 403 | 503;

  constructor(
    readonly reason: RefusalReason,
    readonly detail: RefusalDetail = {},
  ) {
    super(`single sign-on refused: ${reason}`);
    this.status = STATUS[reason];
  }
}

const back = '<p><a href="/">Back to sign-in</a></p>';
const again = '<p><a href="/auth/oidc/start">Sign in with SSO again</a> or go <a href="/">back to sign-in</a>.</p>';

/** What the issuer said went wrong: its error code (a plain token only) and at most 300 characters of description. */
function issuerSaid(detail: RefusalDetail): string {
  const code = /^[\w.-]{1,64}$/.test(detail.error ?? '') ? ` (<code>${escape(detail.error!)}</code>)` : '';
  const description = detail.description ? `: ${escape(detail.description.slice(0, 300))}` : '';
  return `${code}${description}`;
}

export function refusalPage(refusal: Refusal): string {
  const email = `<strong>${escape(refusal.detail.email ?? '')}</strong>`;
  switch (refusal.reason) {
    case 'no-account':
      return page(
        'No account for this address',
        '<h1>No account for this address</h1>' +
          `<p>${email} has no Herald account and no open invitation. Ask an admin of your project to invite this ` +
          `address, then sign in with SSO again.</p>${back}`,
      );
    case 'unverified':
      return page(
        'Email not verified',
        '<h1>Your email is not verified</h1>' +
          `<p>Your identity provider has not verified ${email}, so Herald cannot sign you in with it. Verify the ` +
          `address there (or ask its administrator to), then try again.</p>${back}`,
      );
    case 'no-email':
      return page(
        'No email address',
        '<h1>No email address</h1>' +
          '<p>Your identity provider did not tell Herald your email address, which Herald signs you in by. Ask its ' +
          `administrator to release the <code>email</code> claim to Herald.</p>${back}`,
      );
    case 'attempt':
      return page(
        'Sign-in expired',
        '<h1>This sign-in has expired</h1>' +
          '<p>It was started more than 10 minutes ago, in another browser, or has been used already (the state does ' +
          `not match).</p>${again}`,
      );
    case 'issuer-error':
      return page(
        'Not signed in',
        '<h1>Your identity provider did not sign you in</h1>' +
          `<p>It answered with an error${issuerSaid(refusal.detail)}.</p>${again}`,
      );
    case 'exchange':
      return page(
        'Not signed in',
        '<h1>The sign-in could not be completed</h1>' +
          "<p>Your identity provider's answer was not accepted (its code may have been used already, or it failed " +
          `Herald's checks).</p>${again}`,
      );
    case 'unreachable':
      return page(
        'Identity provider unreachable',
        '<h1>Your identity provider could not be reached</h1>' +
          `<p>Try again in a minute; if this keeps happening, tell whoever runs this Herald.</p>${again}`,
      );
  }
}
