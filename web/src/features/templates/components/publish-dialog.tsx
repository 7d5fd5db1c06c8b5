import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { publishTemplate, type Template } from '../api.ts';
import { versionText } from '../model/content.ts';
import { TextDiff } from './version-diff.tsx';

/**
 * Publish: saves what the editor holds as the draft (when it changed), shows what the draft changes from the
 * published version, and publishes it once confirmed.
 */
export function PublishControl({
  template,
  dirty,
  saveDraft,
  onPublished,
}: {
  template: Template;
  /** Whether the editor holds changes not saved yet. */
  dirty: boolean;
  /** Saves the editor's changes as the draft; the template as saved. */
  saveDraft: () => Promise<Template>;
  onPublished: (t: Template) => void;
}) {
  const api = useApi();
  const [asking, setAsking] = useState<Template | null>(null);
  // A failed save shows in the editor, beside the fields it names.
  const prepare = useMutation({
    mutationFn: () => (dirty ? saveDraft() : Promise.resolve(template)),
    onSuccess: (saved) => setAsking(saved),
  });
  const publish = useMutation({
    mutationFn: () => publishTemplate(api, template.id),
    onSuccess: (published) => {
      setAsking(null);
      onPublished(published);
    },
  });
  const draft = asking?.draft ?? null;
  return (
    <>
      <button
        type="button"
        disabled={prepare.isPending || publish.isPending || (!dirty && !template.hasUnpublishedChanges)}
        onClick={() => prepare.mutate()}
      >
        Publish…
      </button>
      {asking && (
        <div
          className="confirm-panel publish-confirm"
          role="alertdialog"
          aria-labelledby="publish-title"
          aria-describedby="publish-text"
        >
          <h3 id="publish-title">{draft ? `Publish version ${draft.version}?` : 'Nothing to publish'}</h3>
          {draft ? (
            <>
              <p id="publish-text">
                {asking.version > 0
                  ? `Sends use it from now on, instead of version ${asking.version}. What the draft changes:`
                  : 'The first version: sends can use the template from now on. What it holds:'}
              </p>
              <TextDiff
                label={asking.version > 0 ? `Version ${asking.version} → draft` : 'Draft'}
                before={asking.version > 0 ? versionText(asking) : ''}
                after={versionText(draft)}
              />
            </>
          ) : (
            <p id="publish-text">The published version is the latest: there is no draft.</p>
          )}
          <div className="actions">
            {draft && (
              <button type="button" autoFocus disabled={publish.isPending} onClick={() => publish.mutate()}>
                Yes, publish
              </button>
            )}
            <button type="button" className="secondary" onClick={() => setAsking(null)}>
              {draft ? 'Not yet' : 'Close'}
            </button>
          </div>
          {publish.error !== null && <ErrorMessage error={publish.error} />}
        </div>
      )}
    </>
  );
}
