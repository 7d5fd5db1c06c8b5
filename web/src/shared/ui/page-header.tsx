import { useEffect, type ReactNode } from 'react';
import { Link } from '../router.tsx';

/** A page's title and its main actions. */
export function PageHeader({ title, children, back }: { title: string; children?: ReactNode; back?: [string, string] }) {
  useEffect(() => {
    document.title = `${title} · Herald`;
  }, [title]);
  return (
    <div className="page-header">
      <div>
        {back && <Link to={back[0]} className="back">← {back[1]}</Link>}
        <h1>{title}</h1>
      </div>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}
