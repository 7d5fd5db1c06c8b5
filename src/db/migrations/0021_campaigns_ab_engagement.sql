CREATE TABLE "link_clicks" (
	"email_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"campaign_id" uuid,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"human_clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "link_clicks_email_id_url_pk" PRIMARY KEY("email_id","url")
);
--> statement-breakpoint
DROP INDEX "campaigns_active_idx";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "human_opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "human_clicked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "variant" smallint;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "resumed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "variants" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ab_test" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fanout_phase" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fanout_seen" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "variant_content_ids" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "test_ends_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "winner_variant" smallint;--> statement-breakpoint
ALTER TABLE "link_clicks" ADD CONSTRAINT "link_clicks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_clicks_campaign_idx" ON "link_clicks" USING btree ("campaign_id") WHERE campaign_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" USING btree ("status") WHERE status IN ('SCHEDULED', 'SENDING', 'TESTING', 'PAUSED');