CREATE TABLE "inbound_content" (
	"inbound_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"seq" integer NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "inbound_content_inbound_id_part_seq_pk" PRIMARY KEY("inbound_id","part","seq")
);
--> statement-breakpoint
CREATE TABLE "inbound_usage" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"stored_bytes" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_content" ADD CONSTRAINT "inbound_content_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_usage" ADD CONSTRAINT "inbound_usage_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "text_truncated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "html_truncated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Bytes kept so far move over as one piece each: the raw message as part 0, attachment n as part n + 1.
INSERT INTO "inbound_content" ("inbound_id", "part", "seq", "content") SELECT "inbound_id", 0, 0, "content" FROM "inbound_raw";--> statement-breakpoint
INSERT INTO "inbound_content" ("inbound_id", "part", "seq", "content")
	SELECT "inbound_id", "position" + 1, 0, "content" FROM "inbound_attachments" WHERE "content" IS NOT NULL;--> statement-breakpoint
UPDATE "inbound_messages" m SET "stored_bytes" = coalesce(octet_length(m."text"), 0) + coalesce(octet_length(m."html"), 0)
	+ coalesce((SELECT sum(octet_length(c."content")) FROM "inbound_content" c WHERE c."inbound_id" = m."id"), 0)
	WHERE m."expired_at" IS NULL;--> statement-breakpoint
INSERT INTO "inbound_usage" ("project_id", "stored_bytes")
	SELECT "project_id", sum("stored_bytes") FROM "inbound_messages" WHERE "expired_at" IS NULL GROUP BY "project_id";--> statement-breakpoint
-- Retention now deletes the bodies of expired messages too.
UPDATE "inbound_messages" SET "text" = NULL, "html" = NULL WHERE "expired_at" IS NOT NULL;--> statement-breakpoint
DROP TABLE "inbound_raw" CASCADE;--> statement-breakpoint
ALTER TABLE "inbound_attachments" DROP COLUMN "content";
