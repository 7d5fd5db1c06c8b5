import { useEffect, type ReactNode } from 'react';
import { Link } from '../router.tsx';
import { IdField } from './id-field.tsx';
import { breakable } from './long-value.tsx';

/** A page's title and its main actions; a detail page also shows its resource's id (`id`) to copy. */
export function PageHeader({
  title,
  children,
  back,
  id,
}: {
  title: string;
  children?: ReactNode;
  back?: [string, string];
  id?: { noun: string; value: string };
}) {
  useEffect(() => {
    document.title = `${title} · Herald`;
  }, [title]);
  return (
    <div className="page-header">
      <div>
        {back && (
          <Link to={back[0]} className="back">
            ← {breakable(back[1])}
          </Link>
        )}
        <h1>{breakable(title)}</h1>
        {id && <IdField noun={id.noun} id={id.value} />}
      </div>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}
