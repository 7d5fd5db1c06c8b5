import type { Db } from '../../db/client.ts';
import { upsertContacts, type ConsentSource, type UpsertedContact, type UpsertRow } from '../contacts/index.ts';

/**
 * Contacts /v1/track creates subscribed enter the consent ledger from the API; a batch carries many requests, so no
 * single request's client address or user agent is recorded for them.
 */
const TRACKED: ConsentSource = { type: 'api', client: null };

interface Pending {
  projectId: string;
  row: UpsertRow;
  key: string;
  resolve(result: UpsertedContact): void;
  reject(error: unknown): void;
}

export interface TrackBatcherOptions {
  /** Statements running at once at most (1 on the embedded database, which runs one at a time anyway). */
  maxInFlight: number;
  /** Calls one statement carries at most. */
  maxBatch: number;
}

/**
 * Coalesces concurrent /v1/track calls into multi-row upsert statements. Calls start a statement at the
 * end of the event-loop turn that brought them (a lone call waits for nothing else) when none runs, or when a
 * full batch waits and fewer than `maxInFlight` run; calls that arrive meanwhile go together in the next
 * statement (one project and one
 * call per contact each, in arrival order). Each call answers only after its statement has committed.
 * Waiting for the turn's end matters on the embedded database: its statements run on this thread, so
 * the requests that queued up behind one are all parsed before the next starts.
 */
export class TrackBatcher {
  private queue: Pending[] = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly options: TrackBatcherOptions,
  ) {}

  /** Upserts the contact of `row` and records its event, sharing a statement with concurrent calls. */
  upsert(projectId: string, row: UpsertRow): Promise<UpsertedContact> {
    return new Promise((resolve, reject) => {
      this.queue.push({ projectId, row, key: `${projectId} ${row.email}`, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    // A second statement starts only for a full batch: until then, calls wait for the running one and go together
    // in the next (a statement's commit and planning cost as much as tens of rows, so fewer, fuller batches serve
    // more calls per second than many small ones; a full batch waiting means the load needs more than one).
    while (
      this.inFlight < this.options.maxInFlight &&
      (this.inFlight === 0 || this.queue.length >= this.options.maxBatch)
    ) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.inFlight++;
      for (const p of batch) this.busy.add(p.key);
      void this.run(batch).finally(() => {
        for (const p of batch) this.busy.delete(p.key);
        this.inFlight--;
        this.schedule();
      });
    }
  }

  // The oldest waiting calls of the first waiting project whose contact is in no running statement.
  private take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const keys = new Set<string>();
    let projectId: string | undefined;
    for (const p of this.queue) {
      const fits = batch.length < this.options.maxBatch && (projectId ?? p.projectId) === p.projectId;
      if (fits && !this.busy.has(p.key) && !keys.has(p.key)) {
        projectId = p.projectId;
        keys.add(p.key);
        batch.push(p);
      } else {
        rest.push(p);
        // A later call of this contact must not overtake this one.
        keys.add(p.key);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async run(batch: Pending[]): Promise<void> {
    const projectId = batch[0]!.projectId;
    try {
      const results = await upsertContacts({ db: this.db, projectId, rows: batch.map((p) => p.row), consent: TRACKED });
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One call's failure (its data outgrowing the cap…) must not fail the others: each runs alone.
      await Promise.all(
        batch.map((p) =>
          upsertContacts({ db: this.db, projectId, rows: [p.row], consent: TRACKED }).then(
            ([r]) => p.resolve(r!),
            p.reject,
          ),
        ),
      );
    }
  }
}
