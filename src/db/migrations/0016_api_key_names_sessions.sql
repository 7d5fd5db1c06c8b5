ALTER TABLE "api_keys" ADD COLUMN "name" text;--> statement-breakpoint
UPDATE "api_keys" SET "name" = CASE "type" WHEN 'public' THEN 'Public key' ELSE 'Secret key' END;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "session" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp (3) with time zone;
