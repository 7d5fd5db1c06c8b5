CREATE TABLE "email_timeline" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_timeline_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"detail" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_timeline" ADD CONSTRAINT "email_timeline_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_timeline_email_idx" ON "email_timeline" USING btree ("email_id","at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_email_idx" ON "webhook_deliveries" USING btree (("payload" -> 'data' ->> 'emailId')) WHERE "webhook_deliveries"."payload" -> 'data' ? 'emailId';