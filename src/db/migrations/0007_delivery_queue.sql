CREATE TABLE "email_contents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_pacing" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "emails_source_idx";--> statement-breakpoint
DROP INDEX "emails_message_id_idx";--> statement-breakpoint
ALTER TABLE "emails" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "lapsed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "content_id" uuid;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "variables" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "priority" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "next_attempt_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "content_id" uuid;--> statement-breakpoint
ALTER TABLE "email_contents" ADD CONSTRAINT "email_contents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_pacing" ADD CONSTRAINT "send_pacing_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("priority" DESC NULLS LAST,"next_attempt_at") WHERE status IN ('QUEUED', 'DEFERRED', 'SENDING');--> statement-breakpoint
CREATE INDEX "emails_source_idx" ON "emails" USING btree ("source_id") WHERE source_type <> 'CAMPAIGN';--> statement-breakpoint
CREATE INDEX "emails_message_id_idx" ON "emails" USING hash ("message_id");--> statement-breakpoint
-- Mail queued before the upgrade joins the new queue in its old priority order (it had per-email jobs).
UPDATE "emails" SET "next_attempt_at" = now(),
  "priority" = CASE "source_type" WHEN 'CAMPAIGN' THEN 0 WHEN 'WORKFLOW' THEN 5 ELSE 10 END
  WHERE "status" IN ('QUEUED', 'DEFERRED', 'SENDING');--> statement-breakpoint
UPDATE "domains" SET "lapsed_at" = "updated_at" WHERE "status" = 'TEMPORARY_FAILURE';--> statement-breakpoint
-- New mail wakes the sending workers at once (one notification per statement, not per row).
CREATE FUNCTION herald_emails_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('herald_email_due', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER emails_notify_due AFTER INSERT ON "emails" FOR EACH STATEMENT EXECUTE FUNCTION herald_emails_due();--> statement-breakpoint
-- Held mail is released the moment its cause goes away: the project is enabled again, or the sender
-- domain is verified again. Held emails are QUEUED with a status_reason naming the hold (TG_ARGV[0]).
CREATE FUNCTION herald_release_held_mail() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE emails SET next_attempt_at = now(), status_reason = NULL, updated_at = now()
    WHERE project_id = coalesce(to_jsonb(NEW)->>'project_id', to_jsonb(NEW)->>'id')::uuid
      AND status = 'QUEUED' AND status_reason = TG_ARGV[0];
  PERFORM pg_notify('herald_email_due', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER projects_release_mail AFTER UPDATE OF disabled ON "projects"
  FOR EACH ROW WHEN (OLD.disabled AND NOT NEW.disabled) EXECUTE FUNCTION herald_release_held_mail('HELD_PROJECT_DISABLED');--> statement-breakpoint
CREATE TRIGGER domains_release_mail AFTER UPDATE OF status ON "domains"
  FOR EACH ROW WHEN (NEW.status = 'VERIFIED' AND OLD.status <> 'VERIFIED') EXECUTE FUNCTION herald_release_held_mail('HELD_DOMAIN_NOT_VERIFIED');
