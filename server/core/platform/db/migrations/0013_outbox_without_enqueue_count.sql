ALTER TABLE "outbox" DROP COLUMN "enqueue_count";
