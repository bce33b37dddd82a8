CREATE TABLE "project_revisions" (
	"project_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"scene" "bytea" NOT NULL,
	"saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"saved_by" uuid,
	CONSTRAINT "project_revisions_pkey" PRIMARY KEY("project_id","revision")
);
--> statement-breakpoint
ALTER TABLE "project_revisions" ADD CONSTRAINT "project_revisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_revisions" ADD CONSTRAINT "project_revisions_saved_by_people_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."people"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Projects saved before revisions were kept: their current state is their first kept revision.
INSERT INTO "project_revisions" ("project_id", "revision", "name", "type", "scene", "saved_at")
SELECT "id", "revision", "name", "type", "scene", "updated_at" FROM "projects";
