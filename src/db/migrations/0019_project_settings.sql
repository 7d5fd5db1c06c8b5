CREATE TABLE "project_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"tracking" text DEFAULT 'MARKETING_ONLY' NOT NULL,
	"double_opt_in_template_id" uuid,
	"max_bounce_rate" double precision DEFAULT 0.08 NOT NULL,
	"max_complaint_rate" double precision DEFAULT 0.003 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_settings" ADD CONSTRAINT "project_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_settings" ADD CONSTRAINT "project_settings_double_opt_in_template_id_templates_id_fk" FOREIGN KEY ("double_opt_in_template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;