-- Room on each page for a row's next version: a delivery is updated twice per attempt (claimed,
-- then settled) and none of those columns is indexed, so with free space the update stays on
-- its page (a HOT update) and writes no index entries.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);
