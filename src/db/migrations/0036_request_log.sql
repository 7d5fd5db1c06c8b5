CREATE TABLE "request_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" smallint NOT NULL,
	"duration_ms" double precision NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"actor_label" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"request_body" text,
	"request_body_cut" boolean DEFAULT false NOT NULL,
	"request_bytes" integer,
	"response_body" text,
	"response_body_cut" boolean DEFAULT false NOT NULL,
	"response_bytes" integer
);
--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_logs_project_idx" ON "request_logs" USING btree ("project_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_logs_actor_idx" ON "request_logs" USING btree ("project_id","actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_logs_status_idx" ON "request_logs" USING btree ("project_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_logs_path_idx" ON "request_logs" USING btree ("project_id","path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "request_logs_created_idx" ON "request_logs" USING btree ("created_at");