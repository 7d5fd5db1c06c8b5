CREATE TABLE "inbound_attachments" (
	"inbound_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"id" uuid NOT NULL,
	"filename" text,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"content_id" text,
	"content" "bytea",
	CONSTRAINT "inbound_attachments_inbound_id_position_pk" PRIMARY KEY("inbound_id","position"),
	CONSTRAINT "inbound_attachments_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"from_email" text NOT NULL,
	"from_name" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"to" jsonb NOT NULL,
	"cc" jsonb NOT NULL,
	"subject" text NOT NULL,
	"text" text,
	"html" text,
	"headers" jsonb NOT NULL,
	"message_id" text,
	"in_reply_to" text,
	"references" jsonb NOT NULL,
	"in_reply_to_email_id" uuid,
	"authentication" jsonb NOT NULL,
	"contact_id" uuid,
	"size" bigint NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"expired_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "inbound_raw" (
	"inbound_id" uuid PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "receiving" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_attachments" ADD CONSTRAINT "inbound_attachments_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_raw" ADD CONSTRAINT "inbound_raw_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_project_received_idx" ON "inbound_messages" USING btree ("project_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbound_retention_idx" ON "inbound_messages" USING btree ("received_at") WHERE expired_at IS NULL;--> statement-breakpoint
CREATE INDEX "domains_receiving_idx" ON "domains" USING btree ("domain") WHERE receiving;