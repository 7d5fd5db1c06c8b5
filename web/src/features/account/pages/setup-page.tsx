import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { useLocale } from '../../../shared/i18n/index.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { setUp } from '../api.ts';

/**
 * First run: the setup link Herald printed at its first start makes the first user (an instance admin), signed in.
 * In the browser's language.
 */
export function SetupPage() {
  const { lang, t, tx } = useLocale();
  const token = useLinkToken();
  const { signInPerson } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => {
      if (password === null) throw new Error(t('common.samePasswordTwice'));
      return setUp(Api.anonymous(), { token, name: name.trim(), email: email.trim(), password });
    },
    onSuccess: (account) => {
      signInPerson(account);
      navigate('/');
    },
  });
  if (!token) {
    return (
      <AuthPage title={t('setup.title')}>
        <p>
          {tx('setup.noToken', {
            example: <code>…/setup#…</code>,
            signIn: <Link to="/">{t('common.signInLink')}</Link>,
          })}
        </p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={t('setup.title')}>
      <p>{t('setup.intro')}</p>
      <form onSubmit={submitWith(() => create.mutate())} aria-label={t('setup.form')}>
        <div className="field">
          <label htmlFor="setup-name">{t('common.yourName')}</label>
          <input id="setup-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="setup-email">{t('common.email')}</label>
          <input
            id="setup-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <NewPasswordFields lang={lang} label={t('common.password')} onChange={setPassword} />
        {create.error !== null && <ErrorMessage error={create.error} />}
        <button type="submit" disabled={create.isPending || password === null}>
          {create.isPending ? t('setup.creating') : t('setup.create')}
        </button>
      </form>
    </AuthPage>
  );
}
