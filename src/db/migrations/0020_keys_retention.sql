ALTER TABLE "api_keys" ADD COLUMN "scope" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "domain_ids" uuid[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "content_dropped_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "emails_content_kept_idx" ON "emails" USING btree ("created_at") WHERE content_dropped_at IS NULL;--> statement-breakpoint
CREATE INDEX "emails_attachment_set_idx" ON "emails" USING btree ("attachment_set_id") WHERE attachment_set_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "emails_mime_idx" ON "emails" USING btree ("mime_id") WHERE mime_id IS NOT NULL;