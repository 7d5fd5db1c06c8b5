-- A report is recorded once per email it names (one DSN sent to two return paths bounces both emails), not
-- once per project; the old index's rows are unique under the new one too.
DROP INDEX "feedback_reports_fingerprint_idx";--> statement-breakpoint
-- The id SES gave a message at handoff: SNS notifications apply only to emails that have one.
ALTER TABLE "emails" ADD COLUMN "ses_message_id" text;--> statement-breakpoint
-- Emails handed to SES before the column existed and still SENT kept SES's id in the handoff's reply
-- ("SES accepted <id>", written only by the SES transport): their late notifications still apply. Two
-- weeks back covers SES's retries and nearly every complaint without rewriting a whole history.
UPDATE "emails" SET "ses_message_id" = substr("status_reason", 14)
  WHERE "status" = 'SENT' AND "status_reason" LIKE 'SES accepted %' AND "sent_at" > now() - interval '14 days';--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_reports_fingerprint_idx" ON "feedback_reports" USING btree ("project_id","fingerprint","email_id");
