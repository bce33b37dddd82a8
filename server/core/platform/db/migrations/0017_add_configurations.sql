CREATE TABLE "configurations" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"options" jsonb NOT NULL,
	"fields" jsonb NOT NULL,
	"quantity" integer NOT NULL,
	"price" jsonb,
	"sku" text,
	"summary" text NOT NULL,
	"image_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visitor_day_counters" ADD COLUMN "cart_adds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "configurations_project_idx" ON "configurations" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "configurations_expiry_idx" ON "configurations" USING btree ("expires_at");