import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage } from '../../../app/session/auth-page.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { requestPasswordReset } from '../api.ts';

/** What an instance admin runs for a reset link when mail does not arrive. */
const RESET_COMMAND = 'herald users reset-password --email …';

/** Asks for a password reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => requestPasswordReset(Api.anonymous(), email.trim()),
    onSuccess: () => setSentTo(email.trim()),
  });
  return (
    <AuthPage title="Reset your password">
      {sentTo ? (
        <p role="status" className="notice">
          If an account exists for <strong>{sentTo}</strong>, a link to set a new password is on its way. It works for
          an hour.
        </p>
      ) : (
        <form onSubmit={submitWith(() => send.mutate())} aria-label="Ask for a reset link">
          <p>Type the email of your account: a link to set a new password is mailed to it.</p>
          <div className="field">
            <label htmlFor="forgot-email">Email</label>
            <input
              id="forgot-email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          {send.error !== null && <ErrorMessage error={send.error} />}
          <button type="submit" disabled={send.isPending}>
            Send reset link
          </button>
        </form>
      )}
      <p className="hint">
        No mail arriving? An instance admin can make a link with <code>{RESET_COMMAND}</code>.{' '}
        <Link to="/">Back to sign in</Link>
      </p>
    </AuthPage>
  );
}
