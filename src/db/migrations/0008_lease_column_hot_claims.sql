-- A claim (QUEUED → SENDING) no longer touches an indexed column: the lease's expiry has its own column, and
-- the due index is partial on a generated `queued` flag instead of on `status`. PostgreSQL then makes the
-- claim a HOT update (the new row version on the same page, no new index entries), so an email costs two
-- sets of index entries (queued, settled) instead of three.
DROP INDEX "emails_due_idx";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "lease_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "queued" boolean GENERATED ALWAYS AS (status IN ('QUEUED', 'DEFERRED', 'SENDING')) STORED;--> statement-breakpoint
-- Emails SENDING at the upgrade kept their lease's expiry in next_attempt_at.
UPDATE "emails" SET "lease_expires_at" = "next_attempt_at" WHERE "status" = 'SENDING';--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("priority" DESC NULLS LAST,"next_attempt_at") WHERE queued;--> statement-breakpoint
-- Half of each page is left free when rows are inserted, for the claim's new versions of the page's rows: a
-- claim takes consecutive rows in one statement, and an update is HOT only when the new version fits on the
-- same page. Pages already written keep their layout; the new setting applies to pages filled from now on.
ALTER TABLE "emails" SET (fillfactor = 50);
