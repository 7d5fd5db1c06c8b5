import { Link } from '../shared/router.tsx';
import { PageHeader } from '../shared/ui/page-header.tsx';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no dashboard page at this address. <Link to="/">Go to the overview</Link>.
      </p>
    </>
  );
}
