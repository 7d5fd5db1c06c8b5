// Replies to sent mail: which of a project's emails a received message's In-Reply-To names.
import type { Executor } from '../../db/client.ts';
import { findEmailByMessageId } from './emails.repo.ts';

/** The id of the project's email whose Message-ID is `messageId` (`<id@domain>`), else null. */
export async function findRepliedEmailId(opts: {
  db: Executor;
  projectId: string;
  messageId: string | null;
}): Promise<string | null> {
  if (!opts.messageId) return null;
  const email = await findEmailByMessageId(opts.db, opts.messageId);
  return email && email.projectId === opts.projectId ? email.id : null;
}
