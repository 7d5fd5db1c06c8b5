import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { confirmPasswordReset } from '../api.ts';

/** A reset (or set-password) link: a new password, which ends every other session and signs in. */
export function ResetPasswordPage() {
  const token = useLinkToken();
  const { signInPerson } = useSession();
  const [password, setPassword] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      if (password === null) throw new Error('Type the same password twice.');
      return confirmPasswordReset(Api.anonymous(), token, password);
    },
    onSuccess: (account) => {
      signInPerson(account);
      navigate('/');
    },
  });
  return (
    <AuthPage title="Set a new password">
      {token ? (
        <form onSubmit={submitWith(() => save.mutate())} aria-label="Password reset">
          <NewPasswordFields onChange={setPassword} />
          {save.error !== null && <ErrorMessage error={save.error} />}
          <button type="submit" disabled={save.isPending || password === null}>
            Set password
          </button>
        </form>
      ) : (
        <p>This address has no reset token: open the whole link from the email.</p>
      )}
      <p className="hint">
        <Link to="/forgot-password">Ask for a new link</Link> · <Link to="/">Back to sign in</Link>
      </p>
    </AuthPage>
  );
}
