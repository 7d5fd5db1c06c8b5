CREATE TABLE "consent_ledger" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text,
	"topic_id" uuid,
	"email_id" uuid,
	"ip" text,
	"user_agent" text,
	"text" text
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "confirmation_status" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "confirmation_sent_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "confirmed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "consent_ledger" ADD CONSTRAINT "consent_ledger_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_ledger" ADD CONSTRAINT "consent_ledger_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_ledger_contact_idx" ON "consent_ledger" USING btree ("contact_id","at","id");--> statement-breakpoint
UPDATE "contacts" c SET "confirmation_status" = cc."status", "confirmation_sent_at" = cc."sent_at", "confirmed_at" = cc."confirmed_at" FROM "contact_confirmations" cc WHERE cc."contact_id" = c."id";
