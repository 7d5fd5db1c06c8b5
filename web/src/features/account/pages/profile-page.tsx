import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { NewPasswordFields } from '../../../app/session/auth-page.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import type { Account } from '../../../app/session/session.ts';
import { Api } from '../../../shared/api/client.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { leaveProject, updateMe } from '../api.ts';
import { TwoFactorPanel } from '../components/two-factor.tsx';

function NamePanel({ account }: { account: Account }) {
  const { personApi, signInPerson } = useSession();
  const [name, setName] = useState(account.user.name);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => updateMe(personApi!, { name: name.trim() }),
    onSuccess: (next) => {
      signInPerson(next);
      setSaved(true);
    },
  });
  return (
    <section className="panel" aria-labelledby="me-title">
      <h2 id="me-title">You</h2>
      <dl className="details">
        <dt>Email</dt>
        <dd data-testid="my-email">{account.user.email}</dd>
        <dt>Last sign-in</dt>
        <dd>{formatDateTime(account.user.lastSignInAt)}</dd>
        {account.user.isAdmin && (
          <>
            <dt>Instance</dt>
            <dd>Admin: opens every project as its owner</dd>
          </>
        )}
      </dl>
      <form onSubmit={submitWith(() => save.mutate())} aria-label="Your name" className="inline-form">
        <div className="field">
          <label htmlFor="me-name">Name</label>
          <input
            id="me-name"
            autoComplete="name"
            required
            value={name}
            onChange={(e) => {
              setSaved(false);
              setName(e.target.value);
            }}
          />
        </div>
        <button type="submit" disabled={save.isPending || name.trim() === account.user.name}>
          Save name
        </button>
        {saved && (
          <span role="status" className="ok">
            Saved
          </span>
        )}
      </form>
      {save.error !== null && <ErrorMessage error={save.error} />}
    </section>
  );
}

/** A new password, with the current one; every other session of the person ends, this one goes on. */
function PasswordPanel() {
  const { personApi, signInPerson } = useSession();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => {
      if (password === null) throw new Error('Type the same new password twice.');
      return updateMe(personApi!, { password, currentPassword: current });
    },
    onSuccess: (next) => {
      signInPerson(next);
      setCurrent('');
      // The new password fields start empty again.
      setPassword(null);
      setVersion((v) => v + 1);
      setSaved(true);
    },
  });
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form onSubmit={submitWith(() => save.mutate())} aria-label="Change password">
        <div className="field">
          <label htmlFor="current-password">Current password</label>
          <input
            id="current-password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => {
              setSaved(false);
              setCurrent(e.target.value);
            }}
          />
        </div>
        <NewPasswordFields key={version} onChange={setPassword} />
        {save.error !== null && <ErrorMessage error={save.error} />}
        <div className="actions">
          <button type="submit" disabled={save.isPending || password === null}>
            Change password
          </button>
          {saved && (
            <span role="status" className="ok">
              Password changed: your other sessions were signed out.
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

/** The projects the person belongs to, with their role in each, and a way to leave one. */
function ProjectsPanel({ account }: { account: Account }) {
  const { refreshAccount } = useSession();
  const leave = useMutation({
    mutationFn: async (projectId: string) => {
      await leaveProject(new Api({ csrfToken: account.csrfToken, projectId }), account.user.id);
      await refreshAccount();
      navigate('/profile');
    },
  });
  return (
    <section className="panel" aria-labelledby="my-projects-title">
      <h2 id="my-projects-title">Your projects</h2>
      {account.projects.length === 0 ? (
        <p className="muted">You are in no project yet: ask an owner or admin to invite you.</p>
      ) : (
        <DataTable
          caption="Your projects"
          rows={account.projects}
          rowKey={(p) => p.id}
          columns={[
            { label: 'Project', render: (p) => p.name },
            { label: 'Your role', render: (p) => p.role },
            {
              label: 'Leave',
              render: (p) => (
                <ConfirmButton
                  label="Leave"
                  name={`Leave ${p.name}`}
                  confirmLabel={`Yes, leave ${p.name}`}
                  onConfirm={() => leave.mutate(p.id)}
                  disabled={leave.isPending}
                />
              ),
            },
          ]}
        />
      )}
      {leave.error !== null && <ErrorMessage error={leave.error} />}
    </section>
  );
}

/** One's own account: name, password, two-factor, and projects. */
export function ProfilePage() {
  const { account, twoFactorRequired, currentProject: open } = useSession();
  if (!account) return null;
  return (
    <>
      <PageHeader title="Profile" />
      {twoFactorRequired && (
        <p className="notice" role="alert" data-testid="two-factor-required">
          {open ? <strong>{open.name}</strong> : 'This project'} requires two-factor sign-in: set it up below to work in
          it.
        </p>
      )}
      {!twoFactorRequired && <NamePanel account={account} />}
      <TwoFactorPanel />
      {!twoFactorRequired && <PasswordPanel />}
      {!twoFactorRequired && <ProjectsPanel account={account} />}
    </>
  );
}
