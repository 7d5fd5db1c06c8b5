import { useId } from 'react';
import { MAIL_STREAMS, MAILBOX_PROVIDERS, type Transport } from '../../../shared/api/types.ts';
import { FieldProblem, useInvalid } from '../../templates/components/field-errors.tsx';
import type { RuleForm } from '../routing-model.ts';

/** A choice of transport, by name; an id no transport has any more shows as such, so it can be changed. */
export function TransportSelect({
  label,
  path,
  value,
  transports,
  onChange,
}: {
  label: string;
  path: string;
  value: string;
  transports: Transport[];
  onChange: (id: string) => void;
}) {
  const id = useId();
  const invalid = useInvalid(path, `${id}-problem`);
  const known = transports.some((t) => t.id === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} {...invalid}>
        {!known && <option value={value}>Unknown transport {value}</option>}
        {transports.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

/** A text condition of a rule; blank matches any email. */
function ConditionInput({
  label,
  path,
  value,
  placeholder,
  onChange,
}: {
  label: string;
  path: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const invalid = useInvalid(path, `${id}-problem`);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} {...invalid} />
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

/** A condition chosen from a list; blank ("any") matches every email. */
function ChoiceSelect<T extends string>({
  label,
  any,
  value,
  choices,
  onChange,
}: {
  label: string;
  any: string;
  value: T | '';
  choices: readonly { value: T; label: string }[];
  onChange: (value: T | '') => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">{any}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const STREAMS = MAIL_STREAMS.map((value) => ({
  value,
  label: value === 'marketing' ? 'Marketing' : 'Transactional',
}));
const PROVIDERS = MAILBOX_PROVIDERS.map((value) => ({ value, label: value }));

interface PartProps {
  rule: RuleForm;
  /** The rule's place in the body, as the API's field paths name it (`rules.0`). */
  at: string;
  change: (patch: Partial<RuleForm>) => void;
}

/** What an email must match to take the rule: every condition set (blank: any). */
function RuleConditions({ rule, at, change }: PartProps) {
  return (
    <div className="rule-conditions">
      <ChoiceSelect
        label="Stream"
        any="Any stream"
        value={rule.stream}
        choices={STREAMS}
        onChange={(stream) => change({ stream })}
      />
      <ConditionInput
        label="Sender domain"
        path={`${at}.match.senderDomain`}
        placeholder="news.example.com"
        value={rule.senderDomain}
        onChange={(senderDomain) => change({ senderDomain })}
      />
      <ConditionInput
        label="Recipient domain"
        path={`${at}.match.recipientDomain`}
        placeholder="example.org"
        value={rule.recipientDomain}
        onChange={(recipientDomain) => change({ recipientDomain })}
      />
      <ChoiceSelect
        label="Recipient’s provider"
        any="Any provider"
        value={rule.recipientProvider}
        choices={PROVIDERS}
        onChange={(recipientProvider) => change({ recipientProvider })}
      />
      <ConditionInput
        label="Tag"
        path={`${at}.match.tag`}
        placeholder="name or name:value"
        value={rule.tag}
        onChange={(tag) => change({ tag })}
      />
    </div>
  );
}

/** The rule's fallbacks, tried in order while its transport is down. */
function Fallbacks({ rule, at, change, transports, n }: PartProps & { transports: Transport[]; n: number }) {
  const unused = transports.find((t) => t.id !== rule.transportId && !rule.fallbackIds.includes(t.id));
  const setFallback = (i: number, id: string) =>
    change({ fallbackIds: rule.fallbackIds.map((f, j) => (j === i ? id : f)) });
  return (
    <div className="fallbacks">
      <span className="label">While it is down, in order</span>
      {rule.fallbackIds.length === 0 && <p className="hint">No fallback: its mail waits until it is back.</p>}
      <ol>
        {rule.fallbackIds.map((f, i) => (
          <li key={i}>
            <TransportSelect
              label={`Fallback ${i + 1}`}
              path={`${at}.fallbackIds.${i}`}
              value={f}
              transports={transports}
              onChange={(id) => setFallback(i, id)}
            />
            <button
              type="button"
              className="secondary small"
              aria-label={`Remove fallback ${i + 1} of rule ${n}`}
              onClick={() => change({ fallbackIds: rule.fallbackIds.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <FieldProblem path={`${at}.fallbackIds`} id={`${at}-fallbacks-problem`} />
      {unused && (
        <button
          type="button"
          className="secondary small"
          onClick={() => change({ fallbackIds: [...rule.fallbackIds, unused.id] })}
        >
          Add fallback
        </button>
      )}
    </div>
  );
}

interface RuleProps {
  rule: RuleForm;
  index: number;
  count: number;
  transports: Transport[];
  change: (patch: Partial<RuleForm>) => void;
  moveBy: (by: number) => void;
  remove: () => void;
}

/** One rule of the ordered list: its conditions, its transport and fallbacks, and moving or removing it. */
export function RuleEditor({ rule, index, count, transports, change, moveBy, remove }: RuleProps) {
  const n = index + 1;
  const at = `rules.${index}`;
  return (
    <li className="rule" role="group" aria-label={`Rule ${n}`}>
      <div className="rule-head">
        <h3>Rule {n}</h3>
        <div className="actions">
          <button
            type="button"
            className="secondary small"
            disabled={index === 0}
            aria-label={`Move rule ${n} up`}
            onClick={() => moveBy(-1)}
          >
            Up
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={index === count - 1}
            aria-label={`Move rule ${n} down`}
            onClick={() => moveBy(1)}
          >
            Down
          </button>
          <button type="button" className="danger small" aria-label={`Remove rule ${n}`} onClick={remove}>
            Remove
          </button>
        </div>
      </div>
      <p className="hint">When an email matches every condition set here (blank: any):</p>
      <RuleConditions rule={rule} at={at} change={change} />
      <div className="rule-route">
        <TransportSelect
          label="Send with"
          path={`${at}.transportId`}
          value={rule.transportId}
          transports={transports}
          onChange={(transportId) => change({ transportId })}
        />
        <Fallbacks rule={rule} at={at} change={change} transports={transports} n={n} />
      </div>
    </li>
  );
}
