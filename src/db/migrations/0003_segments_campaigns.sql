CREATE TABLE "segments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"filter" jsonb NOT NULL,
	"segment_refs" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"from_email" text NOT NULL,
	"from_name" text,
	"reply_to" text,
	"audience_type" text NOT NULL,
	"segment_id" uuid,
	"audience_filter" jsonb,
	"segment_refs" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"scheduled_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"fanout_cursor" uuid,
	"fanout_done" boolean DEFAULT false NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "events_project_name_created_idx";--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segments_project_created_idx" ON "segments" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_project_created_idx" ON "campaigns" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" USING btree ("status") WHERE status IN ('SCHEDULED', 'SENDING');--> statement-breakpoint
CREATE INDEX "contacts_project_id_idx" ON "contacts" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "emails_campaign_contact_idx" ON "emails" USING btree ("source_id","contact_id") WHERE source_type = 'CAMPAIGN';--> statement-breakpoint
CREATE INDEX "events_project_name_created_idx" ON "events" USING btree ("project_id","name","created_at","id","contact_id");
--> statement-breakpoint
-- Filters compare dates kept as text in contacts.data through this: NULL when the text is no date, so a
-- contact with a malformed value simply does not match (a plain cast would fail the whole query).
CREATE OR REPLACE FUNCTION herald_try_timestamptz(value text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE SET timezone = 'UTC' AS $$
BEGIN
  IF value IS NULL OR value !~ '^\d{4}-\d{2}-\d{2}' THEN
    RETURN NULL;
  END IF;
  BEGIN
    RETURN value::timestamptz;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END;
END
$$;
