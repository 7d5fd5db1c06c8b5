import { useCan, useSession } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { AsyncView, type QueryState } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { firstVerifiedDomain, getCurrentKey } from '../api.ts';
import { Link } from '../../../shared/router.tsx';
import { RouteTester } from '../../transports/components/route-tester.tsx';
import { RoutingPanel } from '../../transports/components/routing-rules.tsx';
import { ApiKeysPanel } from '../components/api-keys.tsx';
import { ProjectSettingsPanel } from '../components/project-settings.tsx';

/** The project's name and id: the signed-in person's open project, or the signed-in key's. */
function ProjectPanel() {
  const { currentProject: open } = useSession();
  // A person's open project is known already; a key asks which project it belongs to.
  const key = useProjectQuery(['keys', 'current'], getCurrentKey, { enabled: !open });
  const current: QueryState<{ project: { id: string; name: string } }> = open
    ? { data: { project: open }, error: null, refetch: () => undefined }
    : key;
  return (
    <section className="panel" aria-labelledby="project-title">
      <h2 id="project-title">Project</h2>
      <AsyncView state={current}>
        {(key) => (
          <dl className="details">
            <dt>Name</dt>
            <dd>{key.project.name}</dd>
            <dt>Project ID</dt>
            <dd className="copyable">
              <code data-testid="project-id">{key.project.id}</code>
              <CopyButton value={key.project.id} label="project ID" />
            </dd>
          </dl>
        )}
      </AsyncView>
    </section>
  );
}

/** The request of a first send, from a verified sender domain of this project, ready to paste. */
function sampleSend(origin: string, domain: string): string {
  const body = JSON.stringify({
    to: 'you@example.com',
    from: `hello@${domain}`,
    subject: 'Hello from Herald',
    body: '<p>It works.</p>',
  });
  return `curl -X POST ${origin}/v1/send \\
  -H "Authorization: Bearer $HERALD_KEY" -H "Content-Type: application/json" \\
  -d '${body}'`;
}

function CallingTheApi() {
  const domain = useProjectQuery(['domains', 'first-verified'], firstVerifiedDomain);
  const origin = window.location.origin;
  return (
    <section className="panel" aria-labelledby="calling-title">
      <h2 id="calling-title">Calling the API</h2>
      <p>
        Base URL: <code>{origin}</code> · reference: <a href="/docs">/docs</a> ·{' '}
        <a href="/openapi.json">OpenAPI document</a>
      </p>
      <AsyncView state={domain}>
        {(verified) =>
          verified ? (
            <>
              <p>
                Send a first email from <code>{verified}</code>, a verified sender domain of this project: set{' '}
                <code>HERALD_KEY</code> to a secret key (<code>export HERALD_KEY=sk_…</code>), then run
              </p>
              <div className="copyable">
                <pre className="source" data-testid="sample-curl">
                  {sampleSend(origin, verified)}
                </pre>
                <CopyButton value={sampleSend(origin, verified)} label="sample request" />
              </div>
            </>
          ) : (
            <p>
              This project has no verified sender domain yet: <Link to="/domains">add and verify one</Link>, and a
              ready-to-run request appears here.
            </p>
          )
        }
      </AsyncView>
    </section>
  );
}

/**
 * Settings: the project and its id, its API keys (managed with the signed-in full key), the routing of its mail over
 * its transports, and a request to send a first email.
 */
export function SettingsPage() {
  const { session, currentProject } = useSession();
  // The settings and keys are the project's configuration: admins change them (a key or the admin token may too).
  const canManage = useCan('admin');
  const projectName = session?.mode === 'admin' ? session.projectName : currentProject?.name;
  return (
    <>
      <PageHeader title="Settings" />
      <ProjectPanel />
      <ReadOnly when={!canManage}>
        <ProjectSettingsPanel />
      </ReadOnly>
      {canManage && <ApiKeysPanel projectName={projectName ?? 'this project'} />}
      {canManage && (
        <>
          <RoutingPanel />
          <RouteTester />
        </>
      )}
      <CallingTheApi />
    </>
  );
}
