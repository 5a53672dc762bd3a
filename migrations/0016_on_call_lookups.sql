-- The console's on-call views (issue 31): a payment found by its txid or endToEndId alone
-- (the indexes of 0005 and 0008 lead with the provider), the landing view's charges of the
-- last hours across every store, and the webhook deliveries listed on their own, newest first,
-- with the failing ones on a page of their own. Expand only: new indexes.
create index payment_intents_txid_idx on payment_intents (txid);
create index payment_intents_provider_payment_id_idx on payment_intents (provider_payment_id);
create index payment_intents_received_e2eid_only_idx on payment_intents (received_e2eid);
create index payment_intents_created_idx on payment_intents (created_at);
create index webhook_deliveries_created_idx on webhook_deliveries (created_at, id);
create index webhook_deliveries_status_created_idx on webhook_deliveries (status, created_at, id);
