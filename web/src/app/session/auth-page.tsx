import { useEffect, useId, useState, type ReactNode } from 'react';
import { Mail } from 'lucide-react';
import { t, type Language } from '../../shared/i18n/index.ts';

/** The frame of the pages before the dashboard (sign-in, setup, invitations, password resets): one centred card. */
export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  useEffect(() => {
    document.title = `${title} · Herald`;
  }, [title]);
  return (
    <main className="sign-in" id="main">
      <section className="sign-in-card" aria-labelledby={id}>
        <h1>
          <span className="logo" aria-hidden="true">
            <Mail className="icon" />
          </span>{' '}
          Herald
        </h1>
        <h2 id={id}>{title}</h2>
        {children}
      </section>
    </main>
  );
}

/**
 * The secret of a link Herald mailed or printed (`/setup#secret`): read from the address once, then taken out of
 * it, so it stays in no history entry, bookmark or screenshot of the address bar.
 */
export function useLinkToken(): string {
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}

/**
 * A new password, typed twice, in `lang` (English unless a page of a mailed link says otherwise); `onChange` hears it
 * once both agree, and null when they no longer do.
 */
export function NewPasswordFields({
  onChange,
  lang = 'en',
  label = t(lang, 'password.new'),
}: {
  onChange: (password: string | null) => void;
  lang?: Language;
  label?: string;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const mismatch = again !== '' && password !== again;
  const change = (nextPassword: string, nextAgain: string) => {
    setPassword(nextPassword);
    setAgain(nextAgain);
    onChange(nextPassword !== '' && nextPassword === nextAgain ? nextPassword : null);
  };
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-password`}>{label}</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          value={password}
          onChange={(e) => change(e.target.value, again)}
          aria-describedby={`${id}-hint`}
        />
        <p className="hint" id={`${id}-hint`}>
          {t(lang, 'password.hint')}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-again`}>{t(lang, 'password.again')}</label>
        <input
          id={`${id}-again`}
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onChange={(e) => change(password, e.target.value)}
          aria-invalid={mismatch}
        />
        {mismatch && (
          <p className="field-error" role="alert">
            {t(lang, 'password.differ')}
          </p>
        )}
      </div>
    </>
  );
}
