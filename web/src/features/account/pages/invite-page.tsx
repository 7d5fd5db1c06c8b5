import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { PasswordSignIn } from '../../../app/session/sign-in.tsx';
import { Api } from '../../../shared/api/client.ts';
import type { Data } from '../../../shared/api/operations.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { submitWith } from '../../../shared/forms.ts';
import { useLocale, type MessageKey, type PageLocale } from '../../../shared/i18n/index.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { acceptInvite, getAccount, getInviteDetails } from '../api.ts';

type InviteDetails = Data<'/auth/invite-details', 'post'>;

type Role = InviteDetails['role'];

/** The sentence naming the project and the role, by role (the article before the role's name differs). */
const SUMMARY: Record<Role, MessageKey> = {
  owner: 'invite.summary.owner',
  admin: 'invite.summary.admin',
  editor: 'invite.summary.editor',
  viewer: 'invite.summary.viewer',
};
const ROLE_NAME: Record<Role, MessageKey> = {
  owner: 'role.owner',
  admin: 'role.admin',
  editor: 'role.editor',
  viewer: 'role.viewer',
};

/** A new account from the invitation: a name and a password, then signed in, in the project. */
function NewAccount({ token, invite, locale }: { token: string; invite: InviteDetails; locale: PageLocale }) {
  const { t, tx } = locale;
  const { signInPerson } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const accept = useMutation({
    mutationFn: async () => {
      if (password === null) throw new Error(t('common.samePasswordTwice'));
      const { projectId } = await acceptInvite(Api.anonymous(), { token, name: name.trim(), password });
      signInPerson(await getAccount(Api.anonymous()), projectId);
      navigate('/');
    },
  });
  return (
    <form onSubmit={submitWith(() => accept.mutate())} aria-label={t('invite.newAccountForm')}>
      <p>{tx('invite.newAccountFor', { email: <strong>{invite.email}</strong> })}</p>
      <div className="field">
        <label htmlFor="invite-name">{t('common.yourName')}</label>
        <input id="invite-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <NewPasswordFields lang={locale.lang} label={t('common.password')} onChange={setPassword} />
      {accept.error !== null && <ErrorMessage error={accept.error} />}
      <button type="submit" disabled={accept.isPending || password === null}>
        {t('invite.createAndJoin')}
      </button>
    </form>
  );
}

/** Joins the project as the person signed in now. */
function AcceptSignedIn({ token, invite, locale }: { token: string; invite: InviteDetails; locale: PageLocale }) {
  const { t, tx } = locale;
  const { account, openProject, signOut } = useSession();
  const accept = useMutation({
    mutationFn: async () => {
      const { projectId } = await acceptInvite(Api.anonymous(), { token });
      // The account read before it does not list the project yet: opening it reads the account again.
      await openProject({ id: projectId, name: invite.projectName });
      navigate('/');
    },
  });
  const other = account !== null && account.user.email.toLowerCase() !== invite.email.toLowerCase();
  return (
    <div>
      <p>{tx('invite.signedInAs', { email: <strong>{account?.user.email}</strong> })}</p>
      {other && (
        <p className="notice">
          {t('invite.otherAddress', {
            invited: invite.email,
            you: account?.user.email ?? '',
            project: invite.projectName,
          })}{' '}
          <button type="button" className="secondary small" onClick={() => void signOut()}>
            {t('invite.signOut')}
          </button>
        </p>
      )}
      {accept.error !== null && <ErrorMessage error={accept.error} />}
      <button type="button" disabled={accept.isPending} onClick={() => accept.mutate()}>
        {t('invite.accept')}
      </button>
    </div>
  );
}

/**
 * An invitation link, in the browser's language: what it is for, then joining. A new address makes its account here;
 * an address with an account signs in first, then accepts.
 */
export function InvitePage() {
  const locale = useLocale();
  const { t, tx } = locale;
  const token = useLinkToken();
  const { account } = useSession();
  const details = useQuery({
    queryKey: ['auth', 'invite', token],
    queryFn: () => (token ? getInviteDetails(Api.anonymous(), token) : Promise.reject(new Error(t('invite.noToken')))),
  });
  return (
    <AuthPage title={t('invite.title')}>
      <AsyncView state={details}>
        {(invite) => (
          <>
            <p data-testid="invite-summary">
              {tx(SUMMARY[invite.role], {
                project: <strong>{invite.projectName}</strong>,
                role: <strong>{t(ROLE_NAME[invite.role])}</strong>,
              })}
            </p>
            <p className="hint">
              {t('invite.validity', { email: invite.email, date: formatDateTime(invite.expiresAt) })}
            </p>
            {account ? (
              <AcceptSignedIn token={token} invite={invite} locale={locale} />
            ) : invite.hasAccount ? (
              <>
                <p>{t('invite.hasAccount', { email: invite.email })}</p>
                <PasswordSignIn email={invite.email} />
                <p className="hint">
                  <Link to="/forgot-password">{t('common.forgotPassword')}</Link>
                </p>
              </>
            ) : (
              <NewAccount token={token} invite={invite} locale={locale} />
            )}
          </>
        )}
      </AsyncView>
    </AuthPage>
  );
}
