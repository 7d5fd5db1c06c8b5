ALTER TABLE "contacts" ADD COLUMN "snoozed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ignore_frequency_cap" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_settings" ADD COLUMN "frequency_cap" jsonb;