import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useSession } from '../../../app/session/session-context.tsx';
import { ROLES, type Role } from '../../../app/session/session.ts';
import type { Data } from '../../../shared/api/operations.ts';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, CopyButton } from '../../../shared/ui/buttons.tsx';
import { DataTable } from '../../../shared/ui/data-table.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { createInvite, listInvites, listMembers, removeMember, revokeInvite, setMemberRole } from '../api.ts';

type Member = Data<'/team'>[number];
type CreatedInvite = Data<'/team/invites', 'post'>;

/** What each role may do, as the invite form explains it. */
const ROLE_MEANINGS: Record<Role, string> = {
  viewer: 'reads everything but contacts’ exports; changes nothing',
  editor: 'contacts, topics, segments, templates, campaigns, workflows and sending',
  admin: 'everything but owners: also keys, domains, webhooks, settings and the team',
  owner: 'everything, owners and two-factor rules included',
};

/** The roles `me` may give: an owner any, an admin any but owner. */
const grantable = (me: Role) =>
  ROLES.filter((r) => me === 'owner' || r !== 'owner')
    .slice()
    .reverse();

/** Whether `me` may change or remove `member`: owners anyone, admins anyone but owners; oneself only by leaving. */
const mayManage = (me: Role, member: Member, myId: string) =>
  member.userId !== myId && (me === 'owner' || member.role !== 'owner');

/** Members and invitations change together (accepting an invitation makes a member): a change reads both again. */
function useTeamChanged(): () => void {
  const cache = useProjectCache();
  return () => void cache.invalidate(['team']);
}

function InviteForm({ me }: { me: Role }) {
  const api = useApi();
  const changed = useTeamChanged();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const invite = useMutation({
    mutationFn: () => createInvite(api, { email: email.trim(), role }),
    onSuccess: (next) => {
      setCreated(next);
      setEmail('');
      changed();
    },
  });
  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="inline-form" onSubmit={submitWith(() => invite.mutate())} aria-label="Invite someone">
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {grantable(me).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={invite.isPending}>
          Send invitation
        </button>
      </form>
      <p className="hint">
        {role[0]!.toUpperCase() + role.slice(1)}: {ROLE_MEANINGS[role]}.
      </p>
      {invite.error !== null && <ErrorMessage error={invite.error} />}
      {created && (
        <div className="notice secret" role="status" data-testid="invite-link">
          <p>
            <strong>{created.email}</strong> is invited as {created.role}.{' '}
            {created.mailed
              ? 'The link was mailed to them; you can share it yourself too:'
              : 'This Herald cannot mail it: send them this link yourself.'}{' '}
            It works once, for 7 days.
          </p>
          <p className="copyable">
            <code className="wrap">{created.inviteUrl}</code>
            <CopyButton value={created.inviteUrl} label="invitation link" />
          </p>
        </div>
      )}
    </section>
  );
}

function Members({ me, myId }: { me: Role; myId: string }) {
  const api = useApi();
  const onChanged = useTeamChanged();
  const { refreshAccount } = useSession();
  const members = useProjectQuery(['team', 'members'], listMembers);
  const [changed, setChanged] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) => setMemberRole(api, member.userId, role),
    onMutate: () => setChanged(null),
    onSuccess: (_, { member, role }) => {
      setChanged(`${member.name || member.email} is now ${role === 'admin' || role === 'owner' ? 'an' : 'a'} ${role}.`);
      onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: async (member: Member) => {
      await removeMember(api, member.userId);
      if (member.userId !== myId) return onChanged();
      // Leaving: this project is no longer one's own.
      await refreshAccount();
      navigate('/');
    },
  });
  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {changed && (
        <p role="status" className="ok">
          {changed}
        </p>
      )}
      {[change.error, remove.error]
        .filter((e) => e !== null)
        .map((e, i) => (
          <ErrorMessage key={i} error={e} />
        ))}
      <AsyncView state={members}>
        {(list) => (
          <DataTable
            caption="Members"
            rows={list}
            rowKey={(m) => m.userId}
            columns={[
              {
                label: 'Member',
                render: (m) => (
                  <span>
                    {m.name}
                    {m.userId === myId && <span className="muted"> (you)</span>}
                    <span className="muted member-email">{m.email}</span>
                  </span>
                ),
              },
              {
                label: 'Role',
                render: (m) =>
                  mayManage(me, m, myId) ? (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      disabled={change.isPending}
                      onChange={(e) => change.mutate({ member: m, role: e.target.value as Role })}
                    >
                      {grantable(me).map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span className="role">{m.role}</span>
                  ),
              },
              {
                label: 'Two-factor',
                render: (m) => (
                  <span className={`badge ${m.twoFactor ? 'badge-good' : 'badge-neutral'}`}>
                    {m.twoFactor ? 'ON' : 'OFF'}
                  </span>
                ),
              },
              { label: 'Joined', render: (m) => formatDateTime(m.joinedAt) },
              { label: 'Last active', render: (m) => formatDateTime(m.lastActiveAt) },
              {
                label: 'Remove',
                render: (m) => {
                  if (m.userId === myId) {
                    return (
                      <ConfirmButton
                        label="Leave project"
                        confirmLabel="Yes, leave"
                        onConfirm={() => remove.mutate(m)}
                        disabled={remove.isPending}
                      />
                    );
                  }
                  return mayManage(me, m, myId) ? (
                    <ConfirmButton
                      label="Remove"
                      name={`Remove ${m.email}`}
                      confirmLabel="Yes, remove"
                      onConfirm={() => remove.mutate(m)}
                      disabled={remove.isPending}
                    />
                  ) : (
                    '—'
                  );
                },
              },
            ]}
          />
        )}
      </AsyncView>
    </section>
  );
}

function Invites() {
  const api = useApi();
  const onChanged = useTeamChanged();
  const invites = useProjectQuery(['team', 'invites'], listInvites);
  const withdraw = useMutation({ mutationFn: (id: string) => revokeInvite(api, id), onSuccess: onChanged });
  return (
    <section className="panel" aria-labelledby="invites-title">
      <h2 id="invites-title">Open invitations</h2>
      {withdraw.error !== null && <ErrorMessage error={withdraw.error} />}
      <AsyncView state={invites} isEmpty={(list) => list.length === 0} empty={<p>No open invitations.</p>}>
        {(list) => (
          <DataTable
            caption="Open invitations"
            rows={list}
            rowKey={(i) => i.id}
            columns={[
              { label: 'Email', render: (i) => i.email },
              { label: 'Role', render: (i) => i.role },
              { label: 'Sent', render: (i) => formatDateTime(i.createdAt) },
              { label: 'Expires', render: (i) => formatDateTime(i.expiresAt) },
              {
                label: 'Withdraw',
                render: (i) => (
                  <ConfirmButton
                    label="Withdraw"
                    name={`Withdraw ${i.email}`}
                    confirmLabel="Yes, withdraw"
                    onConfirm={() => withdraw.mutate(i.id)}
                    disabled={withdraw.isPending}
                  />
                ),
              },
            ]}
          />
        )}
      </AsyncView>
    </section>
  );
}

/**
 * The project's people: invite someone (the link shown to copy), change roles, remove members or leave, withdraw
 * invitations.
 */
export function TeamPage() {
  const { account, role } = useSession();
  if (!account || !role) return null;
  return (
    <>
      <PageHeader title="Team" />
      <InviteForm me={role} />
      <Members me={role} myId={account.user.id} />
      <Invites />
    </>
  );
}
