// The English texts of the pages people reach from a link Herald mailed or printed (setup, invitation, password
// reset): the reference every other language translates, key by key. `{name}` is a parameter the page fills in.

export const en = {
  'common.yourName': 'Your name',
  'common.email': 'Email',
  'common.password': 'Password',
  'common.samePasswordTwice': 'Type the same password twice.',
  'common.signInLink': 'sign in',
  'common.backToSignIn': 'Back to sign in',
  'common.forgotPassword': 'Forgot password?',

  'password.new': 'New password',
  'password.hint': 'At least 10 characters, and not a common password.',
  'password.again': 'Repeat the password',
  'password.differ': 'The two passwords differ.',

  'setup.title': 'Set up Herald',
  'setup.noToken':
    'This address has no setup token. Open the whole setup link Herald printed when it started ({example}), or ' +
    '{signIn}.',
  'setup.intro':
    'Create the first account. It can open every project as its owner, create projects and invite your team.',
  'setup.form': 'Create the first account',
  'setup.creating': 'Creating…',
  'setup.create': 'Create account',

  'invite.title': 'Join a project',
  'invite.noToken': 'This address has no invitation token: open the whole link you were sent.',
  'invite.summary.owner': 'You are invited to {project} as an {role}.',
  'invite.summary.admin': 'You are invited to {project} as an {role}.',
  'invite.summary.editor': 'You are invited to {project} as an {role}.',
  'invite.summary.viewer': 'You are invited to {project} as a {role}.',
  'role.owner': 'owner',
  'role.admin': 'admin',
  'role.editor': 'editor',
  'role.viewer': 'viewer',
  'invite.validity': 'For {email} · the link works until {date}.',
  'invite.hasAccount': '{email} has an account: sign in, then accept.',
  'invite.newAccountForm': 'Create your account',
  'invite.newAccountFor': 'Create your account for {email}:',
  'invite.createAndJoin': 'Create account and join',
  'invite.signedInAs': 'You are signed in as {email}.',
  'invite.otherAddress': 'The invitation was sent to {invited}: accepting it adds you ({you}) to {project}.',
  'invite.signOut': 'Sign out',
  'invite.accept': 'Accept invitation',

  'reset.title': 'Set a new password',
  'reset.form': 'Password reset',
  'reset.submit': 'Set password',
  'reset.noToken': 'This address has no reset token: open the whole link from the email.',
  'reset.askNew': 'Ask for a new link',

  'forgot.title': 'Reset your password',
  'forgot.sent': 'If an account exists for {email}, a link to set a new password is on its way. It works for an hour.',
  'forgot.form': 'Ask for a reset link',
  'forgot.intro': 'Type the email of your account: a link to set a new password is mailed to it.',
  'forgot.submit': 'Send reset link',
  'forgot.noMail': 'No mail arriving? An instance admin can make a link with {command}.',
} as const;

/** A text's key. */
export type MessageKey = keyof typeof en;

/** A catalogue of another language: every key of the English one, none more. */
export type Catalogue = Record<MessageKey, string>;
