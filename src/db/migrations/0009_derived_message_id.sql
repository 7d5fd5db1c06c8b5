-- New emails store no Message-ID: theirs is <email id@sender domain>, derived when needed (messageIdFor), and
-- a notification quoting it finds the email by the id inside. Emails made before keep their random one, found
-- through emails_message_id_idx, which holds no entry for a NULL.
ALTER TABLE "emails" ALTER COLUMN "message_id" DROP NOT NULL;
