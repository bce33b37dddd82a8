ALTER TABLE "visitor_choice_counters" DROP CONSTRAINT "visitor_choice_counters_project_id_day_block_id_choice_id_pk";--> statement-breakpoint
ALTER TABLE "visitor_choice_counters" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_choice_counters" ADD CONSTRAINT "visitor_choice_counters_project_id_day_shard_block_id_choice_id_pk" PRIMARY KEY("project_id","day","shard","block_id","choice_id") INCLUDE ("count");--> statement-breakpoint
CREATE INDEX "visitor_choice_counters_shards_idx" ON "visitor_choice_counters" USING btree ("day") WHERE "visitor_choice_counters"."shard" <> 0;--> statement-breakpoint
CREATE INDEX "visitor_day_counters_shards_idx" ON "visitor_day_counters" USING btree ("day") WHERE "visitor_day_counters"."shard" <> 0;