-- Finding payments (DESIGN.md section 12): the merchant search (`GET /api/v1/payments`) and the
-- admin list (`GET /admin/v1/payment-intents`). A page is newest first in the order
-- (created_at desc, id desc), its cursor the (created_at, id) of the previous page's last
-- intent, and it is read one store at a time (host/src/db/search.rs). Each index below leads
-- with the store, then the filter's equality, then the page's order: a page of 20 is a range
-- of one index read backwards that stops at the 20th entry, however many intents the store
-- has. BENCHMARKS.md section 9 shows the plans on both backends.

-- The store's intents in page order; a `createdFrom`/`createdTo` window is a range of it.
-- It replaces (store_id, created_at): `id` breaks ties in creation time, so the order is the
-- index's own and no sort is needed, and the replay's reads by store and time use its prefix.
create index payment_intents_store_created_id_idx on payment_intents (store_id, created_at, id);
drop index payment_intents_store_created_idx;
-- `status` filter (with or without a window).
create index payment_intents_store_status_idx
    on payment_intents (store_id, status, created_at, id);
-- `reference` filter: exact match.
create index payment_intents_store_reference_idx
    on payment_intents (store_id, reference, created_at, id);
