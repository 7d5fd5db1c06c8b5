ALTER TABLE "project_settings" ADD COLUMN "default_from_email" text;--> statement-breakpoint
ALTER TABLE "project_settings" ADD COLUMN "default_from_name" text;