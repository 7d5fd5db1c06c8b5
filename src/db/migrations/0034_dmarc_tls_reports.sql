CREATE TABLE "dmarc_report_rows" (
	"report_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"source_ip" text,
	"count" integer NOT NULL,
	"disposition" text NOT NULL,
	"dkim" text NOT NULL,
	"spf" text NOT NULL,
	"dkim_own" boolean NOT NULL,
	CONSTRAINT "dmarc_report_rows_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "dmarc_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"org_name" text NOT NULL,
	"report_id" text NOT NULL,
	"email" text,
	"begin_at" timestamp (3) with time zone NOT NULL,
	"end_at" timestamp (3) with time zone NOT NULL,
	"policy" jsonb NOT NULL,
	"messages" integer NOT NULL,
	"passed" integer NOT NULL,
	"records" integer NOT NULL,
	"folded" boolean DEFAULT false NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_refusals" (
	"domain_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_refusals_domain_id_reason_pk" PRIMARY KEY("domain_id","reason")
);
--> statement-breakpoint
CREATE TABLE "tls_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"org_name" text NOT NULL,
	"report_id" text NOT NULL,
	"contact" text,
	"begin_at" timestamp (3) with time zone NOT NULL,
	"end_at" timestamp (3) with time zone NOT NULL,
	"successful" integer NOT NULL,
	"failed" integer NOT NULL,
	"policies" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "reports" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "report_token" text;--> statement-breakpoint
ALTER TABLE "dmarc_report_rows" ADD CONSTRAINT "dmarc_report_rows_report_id_dmarc_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."dmarc_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_refusals" ADD CONSTRAINT "report_refusals_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tls_reports" ADD CONSTRAINT "tls_reports_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dmarc_reports_domain_org_report_idx" ON "dmarc_reports" USING btree ("domain_id","org_name","report_id");--> statement-breakpoint
CREATE INDEX "dmarc_reports_domain_end_idx" ON "dmarc_reports" USING btree ("domain_id","end_at");--> statement-breakpoint
CREATE INDEX "dmarc_reports_received_idx" ON "dmarc_reports" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tls_reports_domain_org_report_idx" ON "tls_reports" USING btree ("domain_id","org_name","report_id");--> statement-breakpoint
CREATE INDEX "tls_reports_domain_end_idx" ON "tls_reports" USING btree ("domain_id","end_at");--> statement-breakpoint
CREATE INDEX "tls_reports_received_idx" ON "tls_reports" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_report_token_idx" ON "domains" USING btree ("report_token");