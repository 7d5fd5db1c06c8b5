import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { LogIn } from 'lucide-react';
import { getSignInOptions, signInWithPassword } from '../../features/account/api.ts';
import { Api, ApiError } from '../../shared/api/client.ts';
import { Link } from '../../shared/router.tsx';
import { ErrorMessage } from '../../shared/ui/async-state.tsx';
import { AuthPage } from './auth-page.tsx';
import { useSession } from './session-context.tsx';
import { notePersonSignIn } from './session.ts';

/**
 * Email and password, then the two-factor code when the server asks for one; signs the person in. `email` fills
 * the address in (an invitation's); `submitLabel` names the button.
 */
export function PasswordSignIn({
  email: initialEmail = '',
  submitLabel = 'Sign in',
}: {
  email?: string;
  submitLabel?: string;
}) {
  const { signInPerson } = useSession();
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { email: email.trim(), password, ...(askCode ? { code: code.trim() } : {}) };
      signInPerson(await signInWithPassword(Api.anonymous(), body));
    } catch (err) {
      // The password was right and the account has two-factor: the same form asks for the code.
      if (err instanceof ApiError && err.code === 'TWO_FACTOR_REQUIRED' && !askCode) setAskCode(true);
      else setError(err);
      setBusy(false);
    }
  };

  const back = () => {
    setAskCode(false);
    setCode('');
    setError(null);
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label={askCode ? 'Second step of signing in' : 'Sign in with email and password'}
    >
      {askCode ? (
        <div className="field">
          <label htmlFor={`${id}-code`}>Two-factor code</label>
          <input
            id={`${id}-code`}
            autoComplete="one-time-code"
            inputMode="numeric"
            spellCheck={false}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
            aria-describedby={`${id}-code-hint`}
          />
          <p className="hint" id={`${id}-code-hint`}>
            The 6-digit code of your authenticator app, or one of your recovery codes.
          </p>
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
        </>
      )}
      {error !== null && <ErrorMessage error={error} />}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : askCode ? 'Verify' : submitLabel}
        </button>
        {askCode && (
          <button type="button" className="secondary" onClick={back}>
            Back
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * Sign-in with a project's secret key or the admin token, kept for scripts and operators; the key goes to
 * sessionStorage only.
 */
function KeySignIn() {
  const { signIn } = useSession();
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
    <form onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} className="key-sign-in">
      <h3 id={`${id}-title`}>With a key</h3>
      <div className="field">
        <label htmlFor={id}>API key or admin token</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <p className="hint" id={`${id}-hint`}>
          A project’s secret key (<code>sk_…</code>) or the admin token. Kept in this browser tab only and forgotten
          when you sign out.
        </p>
      </div>
      {error !== null && <ErrorMessage error={error} />}
      <button type="submit" className="secondary" disabled={busy || secret.trim() === ''}>
        {busy ? 'Signing in…' : 'Sign in with key'}
      </button>
    </form>
  );
}

/** The sign-in page: email and password (or single sign-on), and a key or the admin token for scripts and operators. */
export function SignIn() {
  const { notice } = useSession();
  const options = useQuery({ queryKey: ['auth', 'options'], queryFn: () => getSignInOptions(Api.anonymous()) });
  const passwords = options.data?.passwordSignIn ?? true;
  return (
    <AuthPage title="Sign in">
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {options.data?.setupOpen && (
        <p className="notice" data-testid="setup-open">
          Nobody has an account yet. The first user is created with the setup link Herald printed when it started (
          <code>…/setup#…</code>); until then, sign in with the admin token below.
        </p>
      )}
      {passwords && <PasswordSignIn />}
      <p className="sign-in-links">
        {passwords && <Link to="/forgot-password">Forgot password?</Link>}
        {options.data?.sso && (
          // A full-page visit: the identity provider's pages take over, and come back here signed in.
          <a href="/auth/oidc/start" className="button secondary" onClick={notePersonSignIn}>
            <LogIn className="icon" aria-hidden="true" />
            Sign in with SSO
          </a>
        )}
      </p>
      <KeySignIn />
    </AuthPage>
  );
}
