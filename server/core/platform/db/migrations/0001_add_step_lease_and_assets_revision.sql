ALTER TABLE "workspaces" ADD COLUMN "assets_revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "submission_steps" ADD COLUMN "running_until" timestamp with time zone;