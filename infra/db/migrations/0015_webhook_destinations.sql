-- Webhook deliveries are claimed per destination (issue 18, item 5): a node takes at most a few
-- due rows of each webhook it has room for, so one receiver that never answers holds its own
-- slots and no one else's. This index lets the claim find the webhooks with pending rows by a
-- skip scan and each one's earliest due rows, without reading a dead receiver's whole backlog.
CREATE INDEX webhook_deliveries_destination_idx
  ON webhook_deliveries (webhook_id, next_at) WHERE status = 'pending';

-- It replaces the index by due time alone, which nothing reads any more (measured: a claim over
-- 1,000 webhooks and 200,000 pending rows, 150,000 of them one dead receiver's, takes 26 ms).
DROP INDEX webhook_deliveries_due_idx;
