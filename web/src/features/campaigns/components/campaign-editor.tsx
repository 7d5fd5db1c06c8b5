import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import type { AudienceType, Campaign, Filter, Topic } from '../../../shared/api/types.ts';
import { FilterBuilder } from '../../../shared/filter-builder/filter-builder.tsx';
import { useFilterContext } from '../../../shared/filter-builder/use-filter-context.ts';
import { submitWith } from '../../../shared/forms.ts';
import { navigate } from '../../../shared/router.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { getSettings } from '../../settings/api.ts';
import type { Template } from '../../templates/api.ts';
import { FieldErrorsProvider, fieldsOf } from '../../templates/components/field-errors.tsx';
import { FormatChoice } from '../../templates/components/format-choice.tsx';
import { LayoutPicker } from '../../templates/components/layout-picker.tsx';
import { TemplateOrigin, TemplatePicker } from '../../templates/components/template-picker.tsx';
import { TranslationTabs } from '../../templates/components/translation-tabs.tsx';
import { blankMessage, toContentInput, toMessageForm, type MessageForm } from '../../templates/model/message.ts';
import { createCampaign, updateCampaign } from '../api.ts';
import { CampaignVariants, toAbBody, toAbForm, type AbForm } from './campaign-variants.tsx';

type Form = Pick<Campaign, 'name' | 'from' | 'audienceType'> & {
  /** The template a new campaign starts from ('' for none). */
  templateId: string;
  message: MessageForm;
  description: string;
  fromName: string;
  replyTo: string;
  segmentId: string;
  audienceFilter: Filter;
  topicId: string;
  ignoreFrequencyCap: boolean;
  ab: AbForm;
};

function toForm(c: Campaign): Form {
  return {
    name: c.name,
    templateId: c.templateId ?? '',
    message: toMessageForm(c),
    description: c.description ?? '',
    from: c.from,
    fromName: c.fromName ?? '',
    replyTo: c.replyTo ?? '',
    audienceType: c.audienceType,
    segmentId: c.segmentId ?? '',
    audienceFilter: c.audienceFilter ?? { all: [{ field: 'subscribed', operator: 'equals', value: true }] },
    topicId: c.topicId ?? '',
    ignoreFrequencyCap: c.ignoreFrequencyCap,
    ab: toAbForm(c),
  };
}

function toBody(f: Form) {
  return {
    name: f.name,
    description: f.description.trim() || null,
    ...toContentInput(f.message),
    // Left empty, a new campaign gets the project's default sender, and its name unless one is typed.
    ...(f.from.trim() ? { from: f.from.trim(), fromName: f.fromName.trim() || null } : {}),
    ...(!f.from.trim() && f.fromName.trim() ? { fromName: f.fromName.trim() } : {}),
    replyTo: f.replyTo.trim() || null,
    audienceType: f.audienceType,
    segmentId: f.audienceType === 'SEGMENT' ? f.segmentId || null : null,
    audienceFilter: f.audienceType === 'FILTERED' ? f.audienceFilter : null,
    topicId: f.topicId || null,
    ignoreFrequencyCap: f.ignoreFrequencyCap,
    ...toAbBody(f.ab),
  };
}

/** The topic a campaign is about: only the audience's contacts whose choice for it is in receive it. */
function CampaignTopic({
  topicId,
  topics,
  onChange,
}: {
  topicId: string;
  topics: Topic[];
  onChange: (id: string) => void;
}) {
  const chosen = topics.find((t) => t.id === topicId);
  return (
    <div className="field">
      <label htmlFor="c-topic">Topic</label>
      <select id="c-topic" value={topicId} onChange={(e) => onChange(e.target.value)}>
        <option value="">No topic: the whole audience</option>
        {topics.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
        {topicId && !chosen && <option value={topicId}>topic {topicId}</option>}
      </select>
      <p className="hint">
        {chosen?.defaultSubscription === 'OPT_IN' &&
          `Only contacts who chose “${chosen.name}” receive it (an opt-in topic).`}
        {chosen?.defaultSubscription === 'OPT_OUT' &&
          `Everyone in the audience except contacts who left “${chosen.name}” (an opt-out topic).`}
        {!chosen && 'With a topic, only contacts whose choice for it is in receive the campaign.'}
      </p>
    </div>
  );
}

const UNSUBSCRIBE_HINT = (
  <>
    Every campaign email carries a one-click unsubscribe header; add <code>{'{{ unsubscribeUrl }}'}</code> for a visible
    link.
  </>
);

/** A new campaign's form with a template's published content, sender and name (where still empty) in it. */
const fromTemplate = (f: Form, t: Template): Form => ({
  ...f,
  templateId: t.id,
  name: f.name || t.name,
  message: toMessageForm(t),
  from: t.from ?? f.from,
  fromName: t.fromName ?? f.fromName,
  replyTo: t.replyTo ?? f.replyTo,
});

/** The campaign's content and audience (all contacts, a segment, or a filter built here); saved as a draft. */
export function CampaignEditor({ campaign, onSaved }: { campaign: Campaign; onSaved: (c: Campaign) => void }) {
  const api = useApi();
  const ctx = useFilterContext();
  const [form, setForm] = useState(() => toForm(campaign));
  const [dirty, setDirty] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setDirty(true);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const pick = (t: Template | null) => {
    setDirty(true);
    setForm((f) => (t ? fromTemplate(f, t) : { ...f, templateId: '' }));
  };
  const save = useMutation({
    mutationFn: () =>
      campaign.id
        ? updateCampaign(api, campaign.id, toBody(form))
        : createCampaign(api, { ...toBody(form), ...(form.templateId ? { templateId: form.templateId } : {}) }),
    onSuccess: (result) => {
      setDirty(false);
      onSaved(result);
      if (!campaign.id) navigate(`/campaigns/${result.id}`, { replace: true });
    },
  });
  const submit = submitWith(() => save.mutate());
  // A new campaign may leave its sender to the project's default sender, when there is one.
  const defaultFrom = useProjectQuery(['settings'], getSettings).data?.defaultFrom ?? null;
  const senderOptional = !campaign.id && defaultFrom !== null;
  return (
    <FieldErrorsProvider errors={fieldsOf(save.error)}>
      <form className="panel" onSubmit={submit} aria-label="Campaign">
        {!campaign.id && <TemplatePicker id="c-template" value={form.templateId} onPick={pick} />}
        {campaign.templateId && <TemplateOrigin templateId={campaign.templateId} version={campaign.templateVersion} />}
        <div className="grid-2">
          <div className="field">
            <label htmlFor="c-name">Name</label>
            <input id="c-name" required value={form.name} onChange={(e) => set('name', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="c-description">Description</label>
            <input id="c-description" value={form.description} onChange={(e) => set('description', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="c-from">From address</label>
            <input
              id="c-from"
              type="email"
              required={!senderOptional}
              placeholder={senderOptional ? 'The default sender' : 'news@mail.example.com'}
              value={form.from}
              onChange={(e) => set('from', e.target.value)}
              {...(senderOptional ? { 'aria-describedby': 'c-from-default' } : {})}
            />
            {senderOptional && (
              <p className="hint" id="c-from-default" title={defaultFrom ?? undefined}>
                Empty: {defaultFrom}, the project’s default sender.
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor="c-from-name">From name</label>
            <input id="c-from-name" value={form.fromName} onChange={(e) => set('fromName', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="c-reply">Reply-To</label>
            <input id="c-reply" type="email" value={form.replyTo} onChange={(e) => set('replyTo', e.target.value)} />
          </div>
        </div>
        <div className="grid-2">
          {!campaign.id && (
            <FormatChoice
              name="c-format"
              value={form.message.format}
              onChange={(f) => set('message', blankMessage(f, form.message.subject))}
            />
          )}
          <LayoutPicker
            id="c-layout"
            value={form.message.layoutId}
            format={form.message.format}
            savedDefault={!campaign.id || !Object.prototype.hasOwnProperty.call(campaign, 'layoutId')}
            onChange={(layoutId) => set('message', { ...form.message, layoutId })}
          />
        </div>
        <TranslationTabs
          value={form.message}
          onChange={(message) => set('message', message)}
          idPrefix="c-"
          readOnly={false}
          htmlHint={UNSUBSCRIBE_HINT}
        />
        <fieldset className="audience">
          <legend>Audience</legend>
          {(
            [
              ['ALL', 'All subscribed contacts'],
              ['SEGMENT', 'A segment'],
              ['FILTERED', 'Contacts matching a filter'],
            ] as [AudienceType, string][]
          ).map(([value, label]) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="audience"
                value={value}
                checked={form.audienceType === value}
                onChange={() => set('audienceType', value)}
              />{' '}
              {label}
            </label>
          ))}
          {form.audienceType === 'SEGMENT' && (
            <div className="field">
              <label htmlFor="c-segment">Segment</label>
              <select id="c-segment" required value={form.segmentId} onChange={(e) => set('segmentId', e.target.value)}>
                <option value="">Choose a segment…</option>
                {ctx.segments.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.memberCount})
                  </option>
                ))}
              </select>
            </div>
          )}
          {form.audienceType === 'FILTERED' && (
            <FilterBuilder value={form.audienceFilter} onChange={(f) => set('audienceFilter', f)} ctx={ctx} />
          )}
          <CampaignTopic topicId={form.topicId} topics={ctx.topics} onChange={(id) => set('topicId', id)} />
          <label className="check">
            <input
              type="checkbox"
              checked={form.ignoreFrequencyCap}
              onChange={(e) => set('ignoreFrequencyCap', e.target.checked)}
            />{' '}
            Send even to contacts at the project&apos;s frequency cap (for mail they must get, such as a policy change)
          </label>
          <p className="hint">Only subscribed, not suppressed, not paused contacts receive campaigns.</p>
        </fieldset>
        <CampaignVariants value={form.ab} onChange={(ab) => set('ab', ab)} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {campaign.id ? 'Save draft' : 'Create draft'}
          </button>
          {campaign.id && !dirty && (
            <span role="status" className="recipient-count">
              Recipients now: <strong data-testid="recipient-count">{campaign.recipientCount}</strong>
            </span>
          )}
          {dirty && campaign.id && <span className="muted">Unsaved changes: save to update the recipient count.</span>}
        </div>
        {save.error !== null && <ErrorMessage error={save.error} />}
      </form>
    </FieldErrorsProvider>
  );
}
