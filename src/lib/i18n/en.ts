// The English texts of hosted pages and email footers: the reference every other language translates, key by key.
// Values may hold HTML markup (they are trusted); `{name}` is a parameter the caller fills in, escaped by its rules.

export const en = {
  'page.from': 'Emails from <strong>{sender}</strong>',
  'page.unknownSender': 'this sender',

  'invalid.title': 'Link not valid',
  'invalid.heading': 'This link is not valid',
  'invalid.body': 'It may have been copied incompletely.',

  'busy.title': 'Try again',
  'busy.heading': 'This link is busy',
  'busy.body': 'Please try again in a moment.',

  'unsubscribe.title': 'Unsubscribe from {sender}',
  'unsubscribe.heading': 'Unsubscribe',
  'unsubscribe.question': 'Stop receiving emails from {sender} at <strong>{email}</strong>?',
  'unsubscribe.questionNoEmail': 'Stop receiving emails from {sender} at this address?',
  'unsubscribe.button': 'Unsubscribe',

  'unsubscribed.title': 'Unsubscribed',
  'unsubscribed.heading': 'You are unsubscribed',
  'unsubscribed.body': 'You will not receive these emails from {sender} any more.',
  'unsubscribed.mistake': 'Unsubscribed by mistake?',
  'unsubscribed.resubscribe': 'Resubscribe',

  'resubscribed.title': 'Subscribed again',
  'resubscribed.heading': 'You are subscribed again',
  'resubscribed.body': 'You will receive emails from {sender} again.',

  'preferences.title': 'Email preferences for {sender}',
  'preferences.heading': 'Email preferences',
  'preferences.for': 'For <strong>{email}</strong>.',
  'preferences.unsubscribedAll': 'You are unsubscribed from every email of {sender}.',
  'preferences.choose': 'Choose what you want to hear about:',
  'preferences.save': 'Save preferences',
  'preferences.unsubscribeAll': 'Unsubscribe from everything',
  'preferences.saved': 'Your preferences are saved.',
  'preferences.unsubscribed': 'You are unsubscribed.',
  'preferences.resubscribed': 'You are subscribed again.',
  'preferences.pauseIntro': 'Need a break? Pause these emails instead:',
  'preferences.pause2w': 'Pause for 2 weeks',
  'preferences.pause1m': 'Pause for 1 month',
  'preferences.pause3m': 'Pause for 3 months',
  'preferences.pausedUntil': 'These emails are paused until <strong>{date}</strong>.',
  'preferences.resume': 'Resume now',
  'preferences.snoozed': 'These emails are paused.',
  'preferences.resumed': 'These emails are resumed.',

  'confirm.title': 'Confirm your subscription to {sender}',
  'confirm.heading': 'Confirm your subscription',
  'confirm.question': 'Subscribe <strong>{email}</strong> to emails from {sender}?',
  'confirm.button': 'Confirm',
  'confirmed.title': 'Subscription confirmed',
  'confirmed.heading': 'You are subscribed',
  'confirmed.body': '<strong>{email}</strong> will receive emails from {sender}.',
  'expired.title': 'Link expired',
  'expired.heading': 'This link has expired',
  'expired.body': 'Confirmation links are valid for 7 days. Sign up again to get a new one.',

  'view.imagesHidden': "Remote images are not shown: loading them tells the sender's servers you looked.",
  'view.showImages': 'Show images',
  'view.gone.title': 'Email unavailable',
  'view.gone.heading': 'This email is no longer available',
  'view.gone.body': "The link has expired, or the email's content is no longer kept.",

  'sso.back': '<a href="/">Back to sign-in</a>',
  'sso.again': '<a href="/auth/oidc/start">Sign in with SSO again</a> or go <a href="/">back to sign-in</a>.',
  'sso.noAccount.title': 'No account for this address',
  'sso.noAccount.body':
    '<strong>{email}</strong> has no Herald account and no open invitation. Ask an admin of your project to invite ' +
    'this address, then sign in with SSO again.',
  'sso.unverified.title': 'Email not verified',
  'sso.unverified.heading': 'Your email is not verified',
  'sso.unverified.body':
    'Your identity provider has not verified <strong>{email}</strong>, so Herald cannot sign you in with it. Verify ' +
    'the address there (or ask its administrator to), then try again.',
  'sso.noEmail.title': 'No email address',
  'sso.noEmail.body':
    'Your identity provider did not tell Herald your email address, which Herald signs you in by. Ask its ' +
    'administrator to release the <code>email</code> claim to Herald.',
  'sso.attempt.title': 'Sign-in expired',
  'sso.attempt.heading': 'This sign-in has expired',
  'sso.attempt.body':
    'It was started more than 10 minutes ago, in another browser, or has been used already (the state does not ' +
    'match).',
  'sso.notSignedIn.title': 'Not signed in',
  'sso.issuerError.heading': 'Your identity provider did not sign you in',
  'sso.issuerError.body': 'It answered with an error{detail}.',
  'sso.exchange.heading': 'The sign-in could not be completed',
  'sso.exchange.body':
    "Your identity provider's answer was not accepted (its code may have been used already, or it failed Herald's " +
    'checks).',
  'sso.unreachable.title': 'Identity provider unreachable',
  'sso.unreachable.heading': 'Your identity provider could not be reached',
  'sso.unreachable.body': 'Try again in a minute; if this keeps happening, tell whoever runs this Herald.',

  'form.submit': 'Subscribe',
  'form.required': 'This field is required.',
  'form.invalidEmail': 'Enter a valid email address.',
  'form.invalidChoice': 'Choose one of the options.',
  'form.choose': 'Choose…',
  'form.problems': 'Please check the fields marked below.',
  'form.honeypot': 'Leave this field empty',
  'form.pow.failed': 'The check that you are a person failed. Please try again.',
  'form.pow.noScript': 'This form checks in your browser that you are a person: please turn on JavaScript.',
  'form.unavailable': 'This form cannot take signups right now. Please try again later.',
  'form.done.title': 'Thank you',
  'form.done.subscribed': 'Thank you for subscribing.',
  'form.done.confirm': 'Almost done: check your inbox and confirm your subscription.',
  'form.missing.title': 'Form not found',
  'form.missing.body': 'This form does not exist or was removed.',

  'footer.unsubscribe': 'Unsubscribe',
  'footer.manage': 'Manage preferences',
} as const;

/** A text's key. */
export type MessageKey = keyof typeof en;

/** A catalogue of another language: every key of the English one, none more. */
export type Catalogue = Record<MessageKey, string>;
