-- wrk script for POST /api/v1/payments/{id}/refunds: every request a new Idempotency-Key and
-- a refund of R$ 0.50 of one of the paid payments listed in PIXGATE_BENCH_INTENTS (a file, one
-- payment id a line), taken in turn from a random start, so the connections spread over the
-- payments instead of queueing on one. The API key (with payments:refund) comes from
-- PIXGATE_BENCH_KEY.
local threads = {}
local next_id = 1

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  math.randomseed(os.time() * 1000 + tid)
  prefix = string.format("bench-refund-%d-%d-", tid, math.random(1, 1000000000))
  intents = {}
  for line in io.lines(os.getenv("PIXGATE_BENCH_INTENTS")) do
    if line ~= "" then table.insert(intents, line) end
  end
  start = math.random(1, #intents)
  headers = {
    ["Authorization"] = "Bearer " .. os.getenv("PIXGATE_BENCH_KEY"),
    ["Content-Type"] = "application/json",
  }
  body = '{"amount":0.5,"reason":"bench partial refund"}'
end

function request()
  counter = counter + 1
  headers["Idempotency-Key"] = prefix .. counter
  local intent = intents[(start + counter) % #intents + 1]
  return wrk.format("POST", "/api/v1/payments/" .. intent .. "/refunds", headers, body)
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"status":"SUCCEEDED"', 1, true) then
    errors = (errors or 0) + 1
    if errors <= 3 then io.stderr:write("unexpected answer " .. status .. ": " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local wrong = 0
  for _, thread in ipairs(threads) do
    wrong = wrong + (thread:get("errors") or 0)
  end
  io.write(string.format("answers not SUCCEEDED: %d\n", wrong))
end
