import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { useFilterContext } from '../../../shared/filter-builder/use-filter-context.ts';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { createWorkflow, deleteWorkflow, getWorkflow, listTemplateChoices, updateWorkflow } from '../api.ts';
import { StepList } from '../components/step-editor.tsx';
import { sameTrigger, TriggerFields } from '../components/trigger-fields.tsx';
import { WorkflowExecutions } from '../components/workflow-executions.tsx';
import type { EditableWorkflow, Step, Trigger } from '../steps.ts';

const BLANK: EditableWorkflow = {
  id: '',
  name: '',
  description: null,
  enabled: false,
  allowReentry: false,
  trigger: { type: 'EVENT', event: '' },
  steps: [],
  version: 0,
  createdAt: '',
  updatedAt: '',
};

/** What a save changes: only the fields that differ from the workflow as read (unchanged steps make no new version). */
export function changedFields<T extends Record<string, unknown>>(before: EditableWorkflow, after: T): Partial<T> {
  const read = before as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(read[key])),
  ) as Partial<T>;
}

function WorkflowEditor({ workflow, onSaved }: { workflow: EditableWorkflow; onSaved: (w: EditableWorkflow) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const ctx = useFilterContext();
  const templates = useProjectQuery(['templates', 'choices'], listTemplateChoices);
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description ?? '');
  const [trigger, setTrigger] = useState<Trigger>(workflow.trigger);
  const [allowReentry, setAllowReentry] = useState(workflow.allowReentry);
  const [steps, setSteps] = useState<Step[]>(workflow.steps);
  const save = useMutation({
    mutationFn: () => {
      // An unchanged trigger is sent as it was read, so the save leaves it out.
      const body = {
        name,
        description: description.trim() || null,
        allowReentry,
        steps,
        trigger: sameTrigger(trigger, workflow.trigger) ? workflow.trigger : trigger,
      };
      return workflow.id ? updateWorkflow(api, workflow.id, changedFields(workflow, body)) : createWorkflow(api, body);
    },
    onSuccess: (result) => {
      onSaved(result);
      if (!workflow.id) navigate(`/workflows/${result.id}`, { replace: true });
    },
  });
  const submit = submitWith(() => save.mutate());
  return (
    <form className="panel" onSubmit={submit} aria-label="Workflow">
      <div className="grid-2">
        <div className="field">
          <label htmlFor="w-name">Name</label>
          <input id="w-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="w-description">Description</label>
          <input id="w-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <TriggerFields value={trigger} onChange={setTrigger} eventNames={ctx.eventNames} segments={ctx.segments} />
      </div>
      <label className="check">
        <input type="checkbox" checked={allowReentry} onChange={(e) => setAllowReentry(e.target.checked)} /> Let a
        contact go through it more than once
      </label>
      <h2>Steps</h2>
      {templates.error && <ErrorMessage error={templates.error} onRetry={() => void templates.refetch()} />}
      <StepList steps={steps} onChange={setSteps} env={{ templates: templates.data?.items ?? [], ctx }} />
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {workflow.id ? 'Save workflow' : 'Create workflow'}
          </button>
          {workflow.id && (
            <span className="hint">Saving new steps makes a new version; running executions finish on theirs.</span>
          )}
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** A workflow: trigger and step tree, enable/disable, and its executions. `id` "new" creates one. */
export function WorkflowPage({ id }: { id: string }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const isNew = id === 'new';
  const state = useProjectQuery(['workflows', id], (client) => getWorkflow(client, id), {
    enabled: !isNew,
    placeholderData: isNew ? BLANK : undefined,
  });
  const saved = (workflow: EditableWorkflow) => {
    cache.set(['workflows', workflow.id], workflow);
    void cache.invalidate(['workflows']);
  };
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updateWorkflow(api, id, { enabled }),
    onSuccess: saved,
  });
  const remove = useMutation({
    mutationFn: () => deleteWorkflow(api, id),
    onSuccess: () => {
      navigate('/workflows');
      cache.forget(['workflows', id]);
      void cache.invalidate(['workflows']);
    },
  });
  return (
    <AsyncView state={state}>
      {(workflow) => (
        <>
          <PageHeader title={workflow.id ? workflow.name : 'New workflow'} back={['/workflows', 'Workflows']}>
            {workflow.id && (
              <>
                <StatusBadge status={workflow.enabled ? 'enabled' : 'disabled'} />
                {canEdit && (
                  <>
                    <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(!workflow.enabled)}>
                      {workflow.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <ConfirmButton
                      label="Delete workflow"
                      onConfirm={() => remove.mutate()}
                      disabled={remove.isPending}
                    />
                  </>
                )}
              </>
            )}
          </PageHeader>
          {toggle.error !== null && <ErrorMessage error={toggle.error} />}
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <ReadOnly when={!canEdit}>
            <WorkflowEditor key={workflow.id} workflow={workflow} onSaved={saved} />
          </ReadOnly>
          {workflow.id && <WorkflowExecutions workflow={workflow} />}
        </>
      )}
    </AsyncView>
  );
}
