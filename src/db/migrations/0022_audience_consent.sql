CREATE TABLE "segment_members" (
	"segment_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segment_members_segment_id_contact_id_pk" PRIMARY KEY("segment_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "segment_snapshots" (
	"segment_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	CONSTRAINT "segment_snapshots_segment_id_contact_id_pk" PRIMARY KEY("segment_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "contact_topics" (
	"contact_id" uuid NOT NULL,
	"topic_id" uuid NOT NULL,
	"subscribed" boolean NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_topics_contact_id_topic_id_pk" PRIMARY KEY("contact_id","topic_id")
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"default_subscription" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_confirmations" (
	"contact_id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"confirmed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "segments" ALTER COLUMN "filter" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "segments" ADD COLUMN "type" text DEFAULT 'DYNAMIC' NOT NULL;--> statement-breakpoint
ALTER TABLE "segments" ADD COLUMN "track_membership" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "segments" ADD COLUMN "tracked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "topic_id" uuid;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "trigger_segment_id" uuid;--> statement-breakpoint
ALTER TABLE "segment_members" ADD CONSTRAINT "segment_members_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_members" ADD CONSTRAINT "segment_members_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_snapshots" ADD CONSTRAINT "segment_snapshots_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_snapshots" ADD CONSTRAINT "segment_snapshots_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_topics" ADD CONSTRAINT "contact_topics_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_topics" ADD CONSTRAINT "contact_topics_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_confirmations" ADD CONSTRAINT "contact_confirmations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segment_members_contact_idx" ON "segment_members" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contact_topics_topic_idx" ON "contact_topics" USING btree ("topic_id","subscribed");--> statement-breakpoint
CREATE INDEX "topics_project_created_idx" ON "topics" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segments_tracked_idx" ON "segments" USING btree ("tracked_at") WHERE track_membership AND type = 'DYNAMIC';--> statement-breakpoint
-- Workflows started by segment.entered / segment.exited listen to one segment (trigger_segment_id): the
-- events trigger now also matches the event's data.segmentId against it (NULL = any event of that name).
CREATE OR REPLACE FUNCTION herald_workflow_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH woken AS (
    UPDATE workflow_executions x
    SET status = 'RUNNING', pending = 'EVENT', wait_event = NULL, seq = x.seq + 1, updated_at = now()
    FROM new_events e
    WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL
      AND x.contact_id = e.contact_id AND x.wait_event = e.name AND x.project_id = e.project_id
    RETURNING x.id
  )
  INSERT INTO workflow_executions (id, project_id, workflow_id, version, contact_id, status, once, pending, trigger_event_id)
  SELECT herald_uuid7(), w.project_id, w.id, w.version, e.contact_id, 'RUNNING', NOT w.allow_reentry, 'START', e.id
  FROM new_events e
  JOIN workflows w ON w.project_id = e.project_id AND w.trigger_event = e.name
    AND w.enabled AND w.deleted_at IS NULL AND w.trigger_type = 'EVENT'
    AND (w.trigger_segment_id IS NULL OR w.trigger_segment_id::text = e.data->>'segmentId')
  WHERE w.allow_reentry
    OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.contact_id = e.contact_id AND p.workflow_id = w.id)
  ON CONFLICT (workflow_id, contact_id) WHERE once DO NOTHING;
  RETURN NULL;
END
$$;
