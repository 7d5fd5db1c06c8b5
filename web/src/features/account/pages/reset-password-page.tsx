import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { useLocale } from '../../../shared/i18n/index.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { confirmPasswordReset } from '../api.ts';

/**
 * A reset (or set-password) link, in the browser's language: a new password, which ends every other session and
 * signs in.
 */
export function ResetPasswordPage() {
  const { lang, t } = useLocale();
  const token = useLinkToken();
  const { signInPerson } = useSession();
  const [password, setPassword] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      if (password === null) throw new Error(t('common.samePasswordTwice'));
      return confirmPasswordReset(Api.anonymous(), token, password);
    },
    onSuccess: (account) => {
      signInPerson(account);
      navigate('/');
    },
  });
  return (
    <AuthPage title={t('reset.title')}>
      {token ? (
        <form onSubmit={submitWith(() => save.mutate())} aria-label={t('reset.form')}>
          <NewPasswordFields lang={lang} onChange={setPassword} />
          {save.error !== null && <ErrorMessage error={save.error} />}
          <button type="submit" disabled={save.isPending || password === null}>
            {t('reset.submit')}
          </button>
        </form>
      ) : (
        <p>{t('reset.noToken')}</p>
      )}
      <p className="hint">
        <Link to="/forgot-password">{t('reset.askNew')}</Link> · <Link to="/">{t('common.backToSignIn')}</Link>
      </p>
    </AuthPage>
  );
}
