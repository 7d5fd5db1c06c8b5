CREATE TABLE "routing" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"default_transport_id" text DEFAULT 'default' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_counts" (
	"domain_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "send_counts_domain_id_provider_minute_pk" PRIMARY KEY("domain_id","provider","minute")
);
--> statement-breakpoint
CREATE TABLE "send_throttles" (
	"domain_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"next_at" timestamp (3) with time zone,
	"slowed_per_hour" double precision,
	"slowed_at" timestamp (3) with time zone,
	CONSTRAINT "send_throttles_domain_id_provider_pk" PRIMARY KEY("domain_id","provider")
);
--> statement-breakpoint
CREATE TABLE "transport_health" (
	"key" text PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'HEALTHY' NOT NULL,
	"since" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone,
	"down_until" timestamp (3) with time zone,
	"backoff_seconds" integer DEFAULT 30 NOT NULL,
	"probe_owner" text,
	"probe_until" timestamp (3) with time zone,
	"failovers" integer DEFAULT 0 NOT NULL,
	"last_failover_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "transport_pacing" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb NOT NULL,
	"secret" text,
	"max_per_second" double precision,
	"max_connections" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warmup_days" (
	"domain_id" uuid NOT NULL,
	"day" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "warmup_days_domain_id_day_pk" PRIMARY KEY("domain_id","day")
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "provider_limits" jsonb;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "warmup" jsonb;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "transport_id" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "routing" ADD CONSTRAINT "routing_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_counts" ADD CONSTRAINT "send_counts_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_throttles" ADD CONSTRAINT "send_throttles_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transports" ADD CONSTRAINT "transports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_days" ADD CONSTRAINT "warmup_days_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "send_counts_minute_idx" ON "send_counts" USING btree ("minute");--> statement-breakpoint
CREATE UNIQUE INDEX "transports_project_name_idx" ON "transports" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "transports_project_created_idx" ON "transports" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);