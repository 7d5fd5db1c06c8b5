import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { PasswordSignIn } from '../../../app/session/sign-in.tsx';
import { Api } from '../../../shared/api/client.ts';
import type { Data } from '../../../shared/api/operations.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { acceptInvite, getAccount, getInviteDetails } from '../api.ts';

type InviteDetails = Data<'/auth/invite-details', 'post'>;

const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a');

/** A new account from the invitation: a name and a password, then signed in, in the project. */
function NewAccount({ token, invite }: { token: string; invite: InviteDetails }) {
  const { signInPerson } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const accept = useMutation({
    mutationFn: async () => {
      if (password === null) throw new Error('Type the same password twice.');
      const { projectId } = await acceptInvite(Api.anonymous(), { token, name: name.trim(), password });
      signInPerson(await getAccount(Api.anonymous()), projectId);
      navigate('/');
    },
  });
  return (
    <form onSubmit={submitWith(() => accept.mutate())} aria-label="Create your account">
      <p>
        Create your account for <strong>{invite.email}</strong>:
      </p>
      <div className="field">
        <label htmlFor="invite-name">Your name</label>
        <input id="invite-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <NewPasswordFields label="Password" onChange={setPassword} />
      {accept.error !== null && <ErrorMessage error={accept.error} />}
      <button type="submit" disabled={accept.isPending || password === null}>
        Create account and join
      </button>
    </form>
  );
}

/** Joins the project as the person signed in now. */
function AcceptSignedIn({ token, invite }: { token: string; invite: InviteDetails }) {
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
      <p>
        You are signed in as <strong>{account?.user.email}</strong>.
      </p>
      {other && (
        <p className="notice">
          The invitation was sent to {invite.email}: accepting it adds you ({account?.user.email}) to{' '}
          {invite.projectName}.{' '}
          <button type="button" className="secondary small" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
      )}
      {accept.error !== null && <ErrorMessage error={accept.error} />}
      <button type="button" disabled={accept.isPending} onClick={() => accept.mutate()}>
        Accept invitation
      </button>
    </div>
  );
}

/**
 * An invitation link: what it is for, then joining. A new address makes its account here; an address with an
 * account signs in first, then accepts.
 */
export function InvitePage() {
  const token = useLinkToken();
  const { account } = useSession();
  const details = useQuery({
    queryKey: ['auth', 'invite', token],
    queryFn: () =>
      token
        ? getInviteDetails(Api.anonymous(), token)
        : Promise.reject(new Error('This address has no invitation token: open the whole link you were sent.')),
  });
  return (
    <AuthPage title="Join a project">
      <AsyncView state={details}>
        {(invite) => (
          <>
            <p data-testid="invite-summary">
              You are invited to <strong>{invite.projectName}</strong> as {article(invite.role)}{' '}
              <strong>{invite.role}</strong>.
            </p>
            <p className="hint">
              For {invite.email} · the link works until {formatDateTime(invite.expiresAt)}.
            </p>
            {account ? (
              <AcceptSignedIn token={token} invite={invite} />
            ) : invite.hasAccount ? (
              <>
                <p>{invite.email} has an account: sign in, then accept.</p>
                <PasswordSignIn email={invite.email} />
                <p className="hint">
                  <Link to="/forgot-password">Forgot password?</Link>
                </p>
              </>
            ) : (
              <NewAccount token={token} invite={invite} />
            )}
          </>
        )}
      </AsyncView>
    </AuthPage>
  );
}
