import { useState } from 'react';
import { AuthPage } from '../../../app/session/auth-page.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith, useAction } from '../../../shared/hooks/use-action.ts';
import { Link } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { requestPasswordReset } from '../api.ts';

/** Asks for a password reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useAction(async () => {
    await requestPasswordReset(Api.anonymous(), email.trim());
    setSentTo(email.trim());
  });
  return (
    <AuthPage title="Reset your password">
      {sentTo ? (
        <p role="status" className="notice">
          If an account exists for <strong>{sentTo}</strong>, a link to set a new password is on its way. It works for
          an hour.
        </p>
      ) : (
        <form onSubmit={submitWith(send.run)} aria-label="Ask for a reset link">
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
          <button type="submit" disabled={send.busy}>
            Send reset link
          </button>
        </form>
      )}
      <p className="hint">
        No mail arriving? An instance admin can make a link with{' '}
        <code>herald users reset-password --email …</code>.{' '}
        <Link to="/">Back to sign in</Link>
      </p>
    </AuthPage>
  );
}
