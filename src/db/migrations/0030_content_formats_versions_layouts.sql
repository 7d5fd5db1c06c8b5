CREATE TABLE "layouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"body" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"saved_by" jsonb,
	"published_at" timestamp (3) with time zone,
	"published_by" jsonb
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "html" text;--> statement-breakpoint
UPDATE "templates" SET "html" = "body";--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "html" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "layout_id" uuid;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "no_layout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "translations" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "published_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "published_by" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "draft_version" integer;--> statement-breakpoint
UPDATE "templates" SET "published_at" = "updated_at";--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "layout_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "no_layout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "translations" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_version" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "locale_content_ids" jsonb;--> statement-breakpoint
ALTER TABLE "layouts" ADD CONSTRAINT "layouts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "layouts_project_created_idx" ON "layouts" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_project_default_idx" ON "layouts" USING btree ("project_id") WHERE "layouts"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "template_versions_template_version_idx" ON "template_versions" USING btree ("template_id","version");--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_layout_id_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."layouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_layout_id_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."layouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "template_versions" ("id", "template_id", "version", "snapshot", "saved_at", "published_at")
SELECT gen_random_uuid(), "id", 1, jsonb_build_object('subject', "subject", 'format', 'html', 'body', "body",
  'content', NULL, 'html', "body", 'fromEmail', "from_email", 'fromName', "from_name", 'replyTo', "reply_to",
  'layoutId', NULL, 'noLayout', false, 'translations', NULL), "updated_at", "updated_at"
FROM "templates";
