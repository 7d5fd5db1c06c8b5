import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage } from '../../../app/session/auth-page.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { useLocale } from '../../../shared/i18n/index.ts';
import { Link } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { requestPasswordReset } from '../api.ts';

/** What an instance admin runs for a reset link when mail does not arrive. */
const RESET_COMMAND = 'herald users reset-password --email …';

/**
 * Asks for a password reset link, in the browser's language; the answer is the same whether or not the address has an
 * account.
 */
export function ForgotPasswordPage() {
  const { t, tx } = useLocale();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => requestPasswordReset(Api.anonymous(), email.trim()),
    onSuccess: () => setSentTo(email.trim()),
  });
  return (
    <AuthPage title={t('forgot.title')}>
      {sentTo ? (
        <p role="status" className="notice">
          {tx('forgot.sent', { email: <strong>{sentTo}</strong> })}
        </p>
      ) : (
        <form onSubmit={submitWith(() => send.mutate())} aria-label={t('forgot.form')}>
          <p>{t('forgot.intro')}</p>
          <div className="field">
            <label htmlFor="forgot-email">{t('common.email')}</label>
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
            {t('forgot.submit')}
          </button>
        </form>
      )}
      <p className="hint">
        {tx('forgot.noMail', { command: <code>{RESET_COMMAND}</code> })} <Link to="/">{t('common.backToSignIn')}</Link>
      </p>
    </AuthPage>
  );
}
