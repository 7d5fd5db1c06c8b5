import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/session/session-context.tsx';
import { CheckPanel } from '../../../shared/ui/check-panel.tsx';
import { checkTemplate, type Template } from '../api.ts';

/** The pre-send check of the template's published version, asked again whenever it is published anew. */
export function TemplateCheck({ template }: { template: Template }) {
  const api = useApi();
  const check = useQuery({
    queryKey: ['template-check', template.id, template.version, template.updatedAt],
    queryFn: () => checkTemplate(api, template.id),
  });
  return (
    <section className="panel" aria-labelledby="template-check-title">
      <h2 id="template-check-title">Before sending</h2>
      <p className="hint">The published version, as sends use it.</p>
      <CheckPanel check={check} errorsNote="a campaign with them is refused unless sent anyway." />
    </section>
  );
}
