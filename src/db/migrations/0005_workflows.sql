CREATE TABLE "workflow_executions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"contact_id" uuid NOT NULL,
	"status" text NOT NULL,
	"once" boolean NOT NULL,
	"pending" text,
	"seq" integer DEFAULT 0 NOT NULL,
	"current_step_id" text,
	"wait_event" text,
	"wake_at" timestamp (3) with time zone,
	"trigger_event_id" uuid,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_signing_secrets" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"rotated_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_versions" (
	"workflow_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"steps" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_versions_workflow_id_version_pk" PRIMARY KEY("workflow_id","version")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"allow_reentry" boolean DEFAULT false NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger_event" text,
	"version" integer DEFAULT 1 NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "workflow_executions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_signing_secrets" ADD CONSTRAINT "workflow_signing_secrets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workflow_executions_workflow_created_idx" ON "workflow_executions" USING btree ("workflow_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workflow_executions_workflow_status_idx" ON "workflow_executions" USING btree ("workflow_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workflow_executions_contact_idx" ON "workflow_executions" USING btree ("contact_id","workflow_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_executions_once_idx" ON "workflow_executions" USING btree ("workflow_id","contact_id") WHERE once;--> statement-breakpoint
CREATE INDEX "workflow_executions_waiting_idx" ON "workflow_executions" USING btree ("contact_id","wait_event") WHERE status = 'WAITING' AND wait_event IS NOT NULL;--> statement-breakpoint
CREATE INDEX "workflow_executions_pending_idx" ON "workflow_executions" USING btree ("updated_at") WHERE pending IS NOT NULL;--> statement-breakpoint
CREATE INDEX "workflows_project_created_idx" ON "workflows" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "workflows_event_trigger_idx" ON "workflows" USING btree ("project_id","trigger_event") WHERE enabled AND deleted_at IS NULL AND trigger_type = 'EVENT';--> statement-breakpoint
-- UUIDv7 made in SQL (PostgreSQL 15 has no uuidv7()): the 48-bit millisecond time over a random v4, version bits set to 7.
CREATE FUNCTION herald_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;--> statement-breakpoint
-- Every event the service records (tracked, email.*, contact.*, from any code path) goes through here, in the
-- transaction of its insert: executions waiting for it are woken, and enabled EVENT workflows listening for it
-- start an execution (once per contact and workflow unless allowReentry). Both are one indexed statement each;
-- the workflows module's pump turns the rows marked `pending` into step jobs.
CREATE FUNCTION herald_workflow_events() RETURNS trigger LANGUAGE plpgsql AS $$
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
  WHERE w.allow_reentry
    OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.contact_id = e.contact_id AND p.workflow_id = w.id)
  ON CONFLICT (workflow_id, contact_id) WHERE once DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER events_start_workflows AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION herald_workflow_events();
