-- wrk script for POST /api/v1/payments/charge.
-- Mode "new" (default): every request has its own Idempotency-Key, so each one runs the
-- chain and writes an intent. Mode "replay": 64 keys reused, so almost every request is
-- an idempotent replay. Mode "due": as "new", with a due-date charge (an invoice due in 30 days
-- with a fine, interest and a discount; DESIGN.md section 16). The API key comes from
-- PIXGATE_BENCH_KEY.
local threads = {}
local next_id = 1

function setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  mode = args[1] or "new"
  counter = 0
  math.randomseed(os.time() * 1000 + tid)
  prefix = string.format("bench-%d-%d-", tid, math.random(1, 1000000000))
  headers = {
    ["Authorization"] = "Bearer " .. os.getenv("PIXGATE_BENCH_KEY"),
    ["Content-Type"] = "application/json",
  }
  body = '{"store":"demo-store","amount":129.9,"currency":"BRL","reference":"order-10042",' ..
    '"payer":{"name":"Ana Souza","taxId":"529.982.247-25","email":"ana@example.com"},' ..
    '"metadata":{"orderId":"10042","attribution":{"utm_source":"newsletter"}}}'
  if mode == "due" then
    -- Brasília's date 30 days and 20 days ahead (UTC-3), so the terms stay valid.
    local due = os.date("!%Y-%m-%d", os.time() - 3 * 3600 + 30 * 86400)
    local early = os.date("!%Y-%m-%d", os.time() - 3 * 3600 + 20 * 86400)
    body = body:sub(1, -2) .. ',"dueDate":"' .. due .. '","daysAfterDue":30,' ..
      '"fine":{"type":"PERCENT","value":2},' ..
      '"interest":{"type":"PERCENT_PER_CALENDAR_MONTH","value":1},' ..
      '"discount":{"type":"FIXED_UNTIL_DATES","dates":[{"date":"' .. early .. '","value":5}]}}'
  end
end

function request()
  counter = counter + 1
  if mode == "replay" then
    headers["Idempotency-Key"] = "bench-replay-" .. (counter % 64)
  else
    headers["Idempotency-Key"] = prefix .. counter
  end
  return wrk.format("POST", "/api/v1/payments/charge", headers, body)
end

function response(status, headers, body)
  if status ~= 200 then
    errors = (errors or 0) + 1
    if errors <= 3 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
  end
end
