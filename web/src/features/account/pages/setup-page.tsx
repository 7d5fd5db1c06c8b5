import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { AuthPage, NewPasswordFields, useLinkToken } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { Api } from '../../../shared/api/client.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link, navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { setUp } from '../api.ts';

/** First run: the setup link Herald printed at its first start makes the first user (an instance admin), signed in. */
export function SetupPage() {
  const token = useLinkToken();
  const { signInPerson } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => {
      if (password === null) throw new Error('Type the same password twice.');
      return setUp(Api.anonymous(), { token, name: name.trim(), email: email.trim(), password });
    },
    onSuccess: (account) => {
      signInPerson(account);
      navigate('/');
    },
  });
  if (!token) {
    return (
      <AuthPage title="Set up Herald">
        <p>
          This address has no setup token. Open the whole setup link Herald printed when it started (
          <code>…/setup#…</code>), or <Link to="/">sign in</Link>.
        </p>
      </AuthPage>
    );
  }
  return (
    <AuthPage title="Set up Herald">
      <p>Create the first account. It can open every project as its owner, create projects and invite your team.</p>
      <form onSubmit={submitWith(() => create.mutate())} aria-label="Create the first account">
        <div className="field">
          <label htmlFor="setup-name">Your name</label>
          <input id="setup-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="setup-email">Email</label>
          <input
            id="setup-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <NewPasswordFields label="Password" onChange={setPassword} />
        {create.error !== null && <ErrorMessage error={create.error} />}
        <button type="submit" disabled={create.isPending || password === null}>
          {create.isPending ? 'Creating…' : 'Create account'}
        </button>
      </form>
    </AuthPage>
  );
}
