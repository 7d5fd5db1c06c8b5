import { useProjectQuery } from '../../../shared/api/queries.ts';
import { Link } from '../../../shared/router.tsx';
import { listSourceNames, sourceLabel, type SourceNames } from '../api.ts';

/** The names of the campaigns and workflows emails come from (undefined until read), for SourceLink. */
export const useSourceNames = (): SourceNames | undefined =>
  useProjectQuery(['emails', 'source-names'], listSourceNames).data;

/** Where an email came from: the campaign's or workflow's name linked to its page, else the kind of send. */
export function SourceLink({
  source,
  names,
}: {
  source: { type: string; id: string | null };
  names: SourceNames | undefined;
}) {
  const kind = source.type.toLowerCase();
  if (!source.id || (source.type !== 'CAMPAIGN' && source.type !== 'WORKFLOW')) return <>{sourceLabel(source.type)}</>;
  const name = (source.type === 'CAMPAIGN' ? names?.campaigns : names?.workflows)?.get(source.id);
  return (
    <>
      {kind} <Link to={`/${kind}s/${source.id}`}>{name ?? `(${kind} page)`}</Link>
    </>
  );
}
