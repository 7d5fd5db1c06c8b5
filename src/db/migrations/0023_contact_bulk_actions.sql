CREATE TABLE "contact_bulk_actions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"action" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"filter" jsonb,
	"segment_id" uuid,
	"data" jsonb,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "contact_bulk_targets" (
	"bulk_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"contact_id" uuid NOT NULL,
	CONSTRAINT "contact_bulk_targets_bulk_id_position_pk" PRIMARY KEY("bulk_id","position")
);
--> statement-breakpoint
ALTER TABLE "contact_bulk_actions" ADD CONSTRAINT "contact_bulk_actions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_bulk_targets" ADD CONSTRAINT "contact_bulk_targets_bulk_id_contact_bulk_actions_id_fk" FOREIGN KEY ("bulk_id") REFERENCES "public"."contact_bulk_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_bulk_actions_project_created_idx" ON "contact_bulk_actions" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);