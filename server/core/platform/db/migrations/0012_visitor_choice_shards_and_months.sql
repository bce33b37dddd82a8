ALTER TABLE "visitor_choice_counters" DROP CONSTRAINT "visitor_choice_counters_project_id_day_block_id_choice_id_pk";--> statement-breakpoint
ALTER TABLE "visitor_choice_counters" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_choice_counters" ADD CONSTRAINT "visitor_choice_counters_project_id_day_shard_block_id_choice_id_pk" PRIMARY KEY("project_id","day","shard","block_id","choice_id") INCLUDE ("count");--> statement-breakpoint
CREATE TABLE "visitor_choice_months" (
	"project_id" uuid NOT NULL,
	"month" date NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"block_id" text NOT NULL,
	"choice_id" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visitor_choice_months_project_id_month_shard_block_id_choice_id_pk" PRIMARY KEY("project_id","month","shard","block_id","choice_id") INCLUDE ("count")
);
--> statement-breakpoint
ALTER TABLE "visitor_choice_months" ADD CONSTRAINT "visitor_choice_months_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "visitor_choice_months" ("project_id", "month", "shard", "block_id", "choice_id", "count")
SELECT "project_id", date_trunc('month', "day")::date, 0, "block_id", "choice_id", sum("count")
FROM "visitor_choice_counters" GROUP BY 1, 2, 4, 5;--> statement-breakpoint
CREATE INDEX "visitor_choice_months_shards_idx" ON "visitor_choice_months" USING btree ("month") WHERE "visitor_choice_months"."shard" <> 0;--> statement-breakpoint
CREATE INDEX "visitor_choice_counters_shards_idx" ON "visitor_choice_counters" USING btree ("day") WHERE "visitor_choice_counters"."shard" <> 0;--> statement-breakpoint
CREATE INDEX "visitor_day_counters_shards_idx" ON "visitor_day_counters" USING btree ("day") WHERE "visitor_day_counters"."shard" <> 0;
