DROP TABLE "job_leases" CASCADE;--> statement-breakpoint
ALTER TABLE "submission_steps" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "submission_steps" ADD COLUMN "leased_until" timestamp (3) with time zone;