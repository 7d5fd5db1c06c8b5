-- Held mail and held workflow executions are released by the services that lift the hold (enabling a project,
-- verifying a sender domain), and intake wakes the sending workers itself: these triggers did it behind the code.
DROP TRIGGER IF EXISTS "emails_notify_due" ON "emails";--> statement-breakpoint
DROP TRIGGER IF EXISTS "projects_release_mail" ON "projects";--> statement-breakpoint
DROP TRIGGER IF EXISTS "domains_release_mail" ON "domains";--> statement-breakpoint
DROP TRIGGER IF EXISTS "projects_release_workflows" ON "projects";--> statement-breakpoint
DROP FUNCTION IF EXISTS herald_emails_due();--> statement-breakpoint
DROP FUNCTION IF EXISTS herald_release_held_mail();--> statement-breakpoint
DROP FUNCTION IF EXISTS herald_release_held_workflows();
