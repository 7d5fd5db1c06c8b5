import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { ApiError } from '../../../shared/api/client.ts';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { Routing, Transport } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { FieldErrorsProvider } from '../../templates/components/field-errors.tsx';
import { getRouting, listAllTransports, saveRouting } from '../api.ts';
import {
  blankRule,
  move,
  toRoutingBody,
  toRoutingForm,
  withFieldPaths,
  type RoutingForm,
  type RuleForm,
} from '../routing-model.ts';
import { RuleEditor, TransportSelect } from './rule-editor.tsx';

interface EditorProps {
  routing: Routing;
  transports: Transport[];
  /** Whether what the editor shows is what was saved last (set on a save, cleared by the next change). */
  saved: boolean;
  setSaved: (saved: boolean) => void;
}

function RoutingEditor({ routing, transports, saved, setSaved }: EditorProps) {
  const api = useApi();
  const cache = useProjectCache();
  const [form, setForm] = useState<RoutingForm>(() => toRoutingForm(routing));
  const save = useMutation({
    mutationFn: () => saveRouting(api, toRoutingBody(form)),
    onSuccess: (next) => {
      cache.set(['routing'], next);
      setSaved(true);
    },
  });
  const edit = (next: RoutingForm) => {
    setForm(next);
    setSaved(false);
  };
  const setRule = (index: number, patch: Partial<RuleForm>) =>
    edit({ ...form, rules: form.rules.map((r, i) => (i === index ? { ...r, ...patch } : r)) });
  const errors = save.error instanceof ApiError && save.error.status === 422 ? withFieldPaths(save.error.fields) : [];
  const firstOther = transports.find((t) => t.id !== form.defaultTransportId) ?? transports[0];
  return (
    <form onSubmit={submitWith(() => save.mutate())} aria-label="Routing rules">
      <FieldErrorsProvider errors={errors}>
        {form.rules.length === 0 ? (
          <p className="muted">No rules: every email takes the default transport.</p>
        ) : (
          <ol className="rules">
            {form.rules.map((rule, i) => (
              <RuleEditor
                key={rule.key}
                rule={rule}
                index={i}
                count={form.rules.length}
                transports={transports}
                change={(patch) => setRule(i, patch)}
                moveBy={(by) => edit({ ...form, rules: move(form.rules, i, by) })}
                remove={() => edit({ ...form, rules: form.rules.filter((_, j) => j !== i) })}
              />
            ))}
          </ol>
        )}
        <button
          type="button"
          className="secondary"
          disabled={!firstOther}
          onClick={() => edit({ ...form, rules: [...form.rules, blankRule(firstOther!.id)] })}
        >
          Add rule
        </button>
        <div className="default-transport">
          <TransportSelect
            label="Default transport (when no rule matches)"
            path="defaultTransportId"
            value={form.defaultTransportId}
            transports={transports}
            onChange={(defaultTransportId) => edit({ ...form, defaultTransportId })}
          />
        </div>
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save routing'}
          </button>
          {saved && (
            <span role="status" className="ok">
              Saved
            </span>
          )}
        </div>
        {save.error !== null && <ErrorMessage error={save.error} />}
      </FieldErrorsProvider>
    </form>
  );
}

/** Which transport each email takes: the ordered rules with their fallbacks, and the default. */
export function RoutingPanel() {
  const routing = useProjectQuery(['routing'], getRouting);
  const transports = useProjectQuery(['transports', 'choices'], listAllTransports);
  const section = useRef<HTMLElement>(null);
  const [saved, setSaved] = useState(false);
  const loaded = routing.data !== undefined && transports.data !== undefined;
  useEffect(() => {
    // A link to the rules (`/settings#routing`) lands on them once they are shown.
    if (loaded && window.location.hash === '#routing') section.current?.scrollIntoView();
  }, [loaded]);
  const both = {
    data: loaded ? { routing: routing.data!, transports: transports.data!.items } : undefined,
    error: routing.error ?? transports.error,
    refetch: () => Promise.all([routing.refetch(), transports.refetch()]),
  };
  return (
    <section className="panel routing" id="routing" ref={section} aria-labelledby="routing-title">
      <h2 id="routing-title">Routing</h2>
      <p className="hint">
        Each email takes the first rule whose conditions all match it, else the default transport. While a rule&rsquo;s
        transport is down, its mail goes to the first healthy fallback. Add transports on the{' '}
        <Link to="/transports">Transports</Link> page.
      </p>
      {/* The rules as saved last fill the editor anew. */}
      <AsyncView state={both}>
        {(d) => (
          <RoutingEditor
            key={JSON.stringify(d.routing)}
            routing={d.routing}
            transports={d.transports}
            saved={saved}
            setSaved={setSaved}
          />
        )}
      </AsyncView>
    </section>
  );
}
