-- The settlement calendar (issue 34, DESIGN.md section 18): per settlement date, merchant,
-- provider, gateway and release class, the LIVE payments that succeeded and the refunds that
-- completed. Expand only: two partial indexes, so each report reads the rows of its dates and
-- nothing else, and the previous release runs beside this one.
create index payment_intents_settlement_idx on payment_intents (settlement_date)
    where status = 'SUCCEEDED' and routing_mode = 'LIVE';
create index refunds_completed_idx on refunds (completed_at)
    where status = 'SUCCEEDED';
