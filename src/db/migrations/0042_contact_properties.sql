CREATE TABLE "contact_properties" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"fallback" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_properties" ADD CONSTRAINT "contact_properties_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_properties_project_key_idx" ON "contact_properties" USING btree ("project_id","key");--> statement-breakpoint
CREATE INDEX "contact_properties_project_created_idx" ON "contact_properties" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);