// The pages of a single sign-on that did not sign anyone in: what happened, and a link back to Herald's sign-in.
import { escapeHtml as escape, hostedPage as page } from '../../lib/hosted-page.ts';
import { t, type Language } from '../../lib/i18n/index.ts';

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

/** What the issuer said went wrong: its error code (a plain token only) and at most 300 characters of description. */
function issuerSaid(detail: RefusalDetail): string {
  const code = /^[\w.-]{1,64}$/.test(detail.error ?? '') ? ` (<code>${escape(detail.error!)}</code>)` : '';
  const description = detail.description ? `: ${escape(detail.description.slice(0, 300))}` : '';
  return `${code}${description}`;
}

/** The title, heading and paragraph of each refusal, in `lang`. */
function refusalTexts(lang: Language, refusal: Refusal): { title: string; heading: string; body: string } {
  const email = escape(refusal.detail.email ?? '');
  switch (refusal.reason) {
    case 'no-account': {
      const title = t(lang, 'sso.noAccount.title');
      return { title, heading: title, body: t(lang, 'sso.noAccount.body', { email }) };
    }
    case 'unverified':
      return {
        title: t(lang, 'sso.unverified.title'),
        heading: t(lang, 'sso.unverified.heading'),
        body: t(lang, 'sso.unverified.body', { email }),
      };
    case 'no-email': {
      const title = t(lang, 'sso.noEmail.title');
      return { title, heading: title, body: t(lang, 'sso.noEmail.body') };
    }
    case 'attempt':
      return {
        title: t(lang, 'sso.attempt.title'),
        heading: t(lang, 'sso.attempt.heading'),
        body: t(lang, 'sso.attempt.body'),
      };
    case 'issuer-error':
      return {
        title: t(lang, 'sso.notSignedIn.title'),
        heading: t(lang, 'sso.issuerError.heading'),
        body: t(lang, 'sso.issuerError.body', { detail: issuerSaid(refusal.detail) }),
      };
    case 'exchange':
      return {
        title: t(lang, 'sso.notSignedIn.title'),
        heading: t(lang, 'sso.exchange.heading'),
        body: t(lang, 'sso.exchange.body'),
      };
    case 'unreachable':
      return {
        title: t(lang, 'sso.unreachable.title'),
        heading: t(lang, 'sso.unreachable.heading'),
        body: t(lang, 'sso.unreachable.body'),
      };
  }
}

/**
 * The page of a refusal in `lang`: what happened, and the way back (refusals of the address or the issuer's
 * settings lead back to sign-in; the others offer single sign-on again too).
 */
export function refusalPage(lang: Language, refusal: Refusal): string {
  const { title, heading, body } = refusalTexts(lang, refusal);
  const addressProblem = ['no-account', 'unverified', 'no-email'].includes(refusal.reason);
  const way = addressProblem ? t(lang, 'sso.back') : t(lang, 'sso.again');
  return page(lang, title, `<h1>${heading}</h1><p>${body}</p><p>${way}</p>`);
}
