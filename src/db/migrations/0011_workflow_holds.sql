ALTER TABLE "workflow_executions" ADD COLUMN "held_phase" text;--> statement-breakpoint
CREATE INDEX "workflow_executions_held_idx" ON "workflow_executions" USING btree ("project_id") WHERE held_phase IS NOT NULL;--> statement-breakpoint
-- A disabled project's executions are held, not run: the step job that finds the project disabled keeps its
-- phase in held_phase. Enabling the project marks them for the workflows pump (pending 'RELEASE'), which
-- queues their step jobs again at its next poll (every 200 ms).
CREATE FUNCTION herald_release_held_workflows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workflow_executions SET pending = 'RELEASE', updated_at = now()
    WHERE project_id = NEW.id AND held_phase IS NOT NULL AND status IN ('RUNNING', 'WAITING');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER projects_release_workflows AFTER UPDATE OF disabled ON "projects"
  FOR EACH ROW WHEN (OLD.disabled AND NOT NEW.disabled) EXECUTE FUNCTION herald_release_held_workflows();
