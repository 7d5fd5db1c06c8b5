import { useProjectQuery } from '../../../shared/api/queries.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { CopyButton } from '../../../shared/ui/buttons.tsx';
import { getFormEmbed } from '../api.ts';

/** The snippet to paste into a site (a plain HTML form; the widget script too for proof of work), to copy. */
export function EmbedCode({ id, url }: { id: string; url: string }) {
  const state = useProjectQuery(['forms', id, 'embed'], (client) => getFormEmbed(client, id));
  return (
    <section className="panel" aria-label="Embed">
      <h2>Embed</h2>
      <p>
        Hosted page: <a href={url}>{url}</a> <CopyButton value={url} label="hosted page URL" />
      </p>
      <AsyncView state={state}>
        {(embed) => {
          const code = embed.script ? `${embed.html}\n${embed.script}` : embed.html;
          return (
            <div className="field">
              <label htmlFor="embed-code">Embed code</label>
              <textarea id="embed-code" readOnly rows={6} value={code} />
              <div className="actions">
                <CopyButton value={code} label="embed code" />
              </div>
              <p className="hint">A plain HTML form: it posts to the hosted page and works without JavaScript.</p>
            </div>
          );
        }}
      </AsyncView>
    </section>
  );
}
