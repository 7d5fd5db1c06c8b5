// Who the mail came from, as the pages a recipient reaches from it name the sender (unsubscribe, preferences,
// double opt-in confirmation).
import type { Db } from '../../db/client.ts';
import { isLocalDomain, listDomains } from '../domains/index.ts';
import { DEFAULT_PROJECT_NAME, getProject } from './projects.service.ts';

/**
 * The sender as recipients read it: the project's name, unless it is still the name a first start gave it (which
 * tells a recipient nothing); then the project's newest verified sender domain (one on the internet before a local
 * one). Null when there is neither, or the project cannot be read.
 */
export async function recipientSenderName(opts: { db: Db; projectId: string }): Promise<string | null> {
  const project = await getProject({ db: opts.db, id: opts.projectId }).catch(() => null);
  if (!project) return null;
  if (project.name !== DEFAULT_PROJECT_NAME) return project.name;
  const verified = await listDomains({ db: opts.db, projectId: opts.projectId, limit: 20, status: 'VERIFIED' });
  return (verified.items.find((d) => !isLocalDomain(d.domain)) ?? verified.items[0])?.domain ?? null;
}
