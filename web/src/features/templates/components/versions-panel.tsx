import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView, ErrorMessage, Loading } from '../../../shared/ui/async-state.tsx';
import { getVersion, listVersions, restoreVersion, type Actor, type Template, type VersionSummary } from '../api.ts';
import { versionText } from '../model/content.ts';
import { TextDiff } from './version-diff.tsx';

const by = (actor: Actor | null, at: string | null) =>
  at ? `${formatDateTime(at)}${actor ? ` by ${actor.label}` : ''}` : '—';

/** One version with its content; a draft's content is replaced by each save, so its key names the save. */
const useVersion = (id: string, v: VersionSummary) =>
  useProjectQuery(['templates', id, 'versions', v.version, v.savedAt], (api) => getVersion(api, id, v.version));

/** The two versions picked, their texts compared (the older first). */
function VersionsDiff({ template, pair }: { template: Template; pair: [VersionSummary, VersionSummary] }) {
  const [older, newer] = [...pair].sort((a, b) => a.version - b.version) as [VersionSummary, VersionSummary];
  const before = useVersion(template.id, older);
  const after = useVersion(template.id, newer);
  if (before.error || after.error) return <ErrorMessage error={before.error ?? after.error} />;
  if (!before.data || !after.data) return <Loading label="Comparing…" />;
  return (
    <TextDiff
      label={`Version ${older.version} → version ${newer.version}`}
      before={versionText(before.data)}
      after={versionText(after.data)}
    />
  );
}

/**
 * A template's versions (the published ones and the draft, newest first): who saved and published each and when,
 * two of them compared line by line, and any one restored as the draft.
 */
export function VersionsPanel({
  template,
  canEdit,
  onRestored,
}: {
  template: Template;
  canEdit: boolean;
  onRestored: (t: Template) => void;
}) {
  const api = useApi();
  const versions = useProjectQuery(['templates', template.id, 'versions'], (client) =>
    listVersions(client, template.id),
  );
  const [picked, setPicked] = useState<number[]>([]);
  const restore = useMutation({
    mutationFn: (version: number) => restoreVersion(api, template.id, version),
    onSuccess: onRestored,
  });
  const toggle = (version: number) =>
    setPicked((p) => (p.includes(version) ? p.filter((v) => v !== version) : [...p, version].slice(-2)));
  return (
    <section className="panel versions" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <AsyncView state={versions}>
        {(list) => {
          const pair = list.filter((v) => picked.includes(v.version));
          return (
            <>
              <div className="table-scroll">
                <table className="data-table compact" aria-label="Versions">
                  <thead>
                    <tr>
                      <th scope="col">Compare</th>
                      <th scope="col">Version</th>
                      <th scope="col">Subject</th>
                      <th scope="col">Saved</th>
                      <th scope="col">Published</th>
                      {canEdit && <th scope="col">Restore</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((v) => (
                      <tr key={v.version} data-version={v.version}>
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Compare version ${v.version}`}
                            checked={picked.includes(v.version)}
                            onChange={() => toggle(v.version)}
                          />
                        </td>
                        <td>
                          {v.version}{' '}
                          {v.draft ? (
                            <span className="badge badge-wait">Draft</span>
                          ) : (
                            v.version === template.version && <span className="badge badge-good">Live</span>
                          )}
                        </td>
                        <td>
                          <span className="truncate" title={v.subject}>
                            {v.subject}
                          </span>
                        </td>
                        <td>{by(v.savedBy, v.savedAt)}</td>
                        <td>{v.draft ? 'Not yet' : by(v.publishedBy, v.publishedAt)}</td>
                        {canEdit && (
                          <td>
                            {!v.draft && (
                              <button
                                type="button"
                                className="secondary small"
                                aria-label={`Restore version ${v.version}`}
                                disabled={restore.isPending}
                                onClick={() => restore.mutate(v.version)}
                              >
                                Restore
                              </button>
                            )}
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {restore.error !== null && <ErrorMessage error={restore.error} />}
              {pair.length === 2 ? (
                <VersionsDiff
                  key={picked.join('-')}
                  template={template}
                  pair={pair as [VersionSummary, VersionSummary]}
                />
              ) : (
                <p className="hint">
                  Pick two versions to see what changed between them; Restore makes a version’s content the draft.
                </p>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}
