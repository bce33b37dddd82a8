ALTER TABLE "assets" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "delivery_storage_key" text;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "delivery_size_bytes" bigint;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "delivery_reason" text;