-- Every committed change to a sender domain that decides how its mail is signed (added, deleted, its status,
-- lapse, name, project or DKIM key) is announced on herald_domains_changed, whoever made it: the API, the
-- background check, a project's deletion. Each worker clears its cache of signing domains when it hears it.
CREATE FUNCTION herald_domains_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('herald_domains_changed', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER domains_notify_insert_delete AFTER INSERT OR DELETE ON "domains"
  FOR EACH STATEMENT EXECUTE FUNCTION herald_domains_changed();--> statement-breakpoint
-- A check that finds nothing new (most of them) rewrites the row's records and times only: no notification.
CREATE TRIGGER domains_notify_update AFTER UPDATE ON "domains"
  FOR EACH ROW WHEN ((OLD.status, OLD.lapsed_at, OLD.domain, OLD.project_id, OLD.dkim_selector, OLD.dkim_private_key)
    IS DISTINCT FROM (NEW.status, NEW.lapsed_at, NEW.domain, NEW.project_id, NEW.dkim_selector, NEW.dkim_private_key))
  EXECUTE FUNCTION herald_domains_changed();
