CREATE TABLE "engagement_sweeps" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"cursor" uuid,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "last_human_open_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "last_human_click_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "engagement_hours" integer[];--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "first_marketing_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "last_marketing_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "marketing_received" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "send_time_group" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "optimize_within_seconds" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "holdout_percent" smallint;--> statement-breakpoint
ALTER TABLE "project_settings" ADD COLUMN "dormant_after_days" integer DEFAULT 180 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_settings" ADD COLUMN "sunset_action" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "engagement_sweeps" ADD CONSTRAINT "engagement_sweeps_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;