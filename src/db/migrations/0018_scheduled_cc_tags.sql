-- Scheduled emails wait in the delivery queue (due at their time), so `queued` counts SCHEDULED too. Dropping the
-- generated column drops the due index built on it: it is made again below.
DROP INDEX IF EXISTS "emails_due_idx";--> statement-breakpoint
ALTER TABLE "emails" DROP COLUMN "queued";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "queued" boolean GENERATED ALWAYS AS (status IN ('SCHEDULED', 'QUEUED', 'DEFERRED', 'SENDING')) STORED;--> statement-breakpoint
ALTER TABLE "email_attachments" ADD COLUMN "cid" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "to_list" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "cc" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "bcc" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "rcpt" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "tags" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "scheduled_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "emails_tags_idx" ON "emails" USING gin ("tags") WHERE tags IS NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("priority" DESC NULLS LAST,"next_attempt_at") WHERE queued;
