CREATE TABLE "visitor_choice_counters" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"block_id" text NOT NULL,
	"choice_id" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visitor_choice_counters_project_id_day_block_id_choice_id_pk" PRIMARY KEY("project_id","day","block_id","choice_id")
);
--> statement-breakpoint
CREATE TABLE "visitor_day_counters" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"option_changes" integer DEFAULT 0 NOT NULL,
	"submissions" integer DEFAULT 0 NOT NULL,
	"animations" integer DEFAULT 0 NOT NULL,
	"ar_opens" integer DEFAULT 0 NOT NULL,
	"saves" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visitor_day_counters_project_id_day_shard_pk" PRIMARY KEY("project_id","day","shard")
);
--> statement-breakpoint
CREATE TABLE "visitor_day_sessions" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "visitor_day_sessions_project_id_day_session_id_pk" PRIMARY KEY("project_id","day","session_id")
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "price" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "client_price" jsonb;--> statement-breakpoint
ALTER TABLE "visitor_choice_counters" ADD CONSTRAINT "visitor_choice_counters_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_day_counters" ADD CONSTRAINT "visitor_day_counters_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_day_sessions" ADD CONSTRAINT "visitor_day_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;