import { useId, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../shared/ui/async-state.tsx';
import { useSession } from './session-context.tsx';

/** Sign-in with a project's secret key or the admin token; the key goes to sessionStorage only. */
export function SignIn() {
  const { signIn, notice } = useSession();
  const id = useId();
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(secret);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <main className="sign-in" id="main">
      <form onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}><span className="logo" aria-hidden="true">✉</span> Herald</h1>
        <p>Sign in with a project’s secret key (<code>sk_…</code>) or with the admin token.</p>
        {notice && <p className="notice" role="status">{notice}</p>}
        <div className="field">
          <label htmlFor={id}>Secret key or admin token</label>
          <input id={id} type="password" autoComplete="off" spellCheck={false} required value={secret}
            onChange={(e) => setSecret(e.target.value)} autoFocus />
          <p className="hint">Kept in this browser tab only (session storage) and forgotten when you sign out.</p>
        </div>
        {error !== null && <ErrorMessage error={error} />}
        <button type="submit" disabled={busy || secret.trim() === ''}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
