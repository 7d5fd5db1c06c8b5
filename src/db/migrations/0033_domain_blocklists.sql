CREATE TABLE "domain_blocklists" (
	"domain_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"zone" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"listed" boolean,
	"answer" text,
	"listed_since" timestamp (3) with time zone,
	"checked_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "domain_blocklists_domain_id_zone_name_pk" PRIMARY KEY("domain_id","zone","name")
);
--> statement-breakpoint
ALTER TABLE "domain_blocklists" ADD CONSTRAINT "domain_blocklists_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;