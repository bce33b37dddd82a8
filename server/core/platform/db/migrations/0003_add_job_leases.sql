CREATE TABLE "job_leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submission_steps" DROP COLUMN "running_until";--> statement-breakpoint
-- Submission steps moved to their own queue family; pending work follows them.
UPDATE "outbox" SET "queue" = 'submission-steps' WHERE "queue" = 'submissions';