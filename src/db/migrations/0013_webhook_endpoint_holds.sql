DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "lease_expires_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","id") WHERE status = 'PENDING';