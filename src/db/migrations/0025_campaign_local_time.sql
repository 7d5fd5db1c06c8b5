ALTER TABLE "campaigns" ADD COLUMN "local_time" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "local_date" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "local_ends_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "unknown_time_zones" integer DEFAULT 0 NOT NULL;