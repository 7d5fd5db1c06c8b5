-- A report is recorded once per email it names (one DSN sent to two return paths bounces both emails), not
-- once per project; the old index's rows are unique under the new one too.
DROP INDEX "feedback_reports_fingerprint_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_reports_fingerprint_idx" ON "feedback_reports" USING btree ("project_id","fingerprint","email_id");
