-- wrk script for GET /api/v1/payments: each request is a path picked at random from the file
-- named by the first argument (bench/search.py writes them). The API key comes from
-- PIXGATE_BENCH_KEY. Answers other than 200 are counted by wrk ("Non-2xx").
function init(args)
  paths = {}
  for line in io.lines(args[1]) do
    table.insert(paths, line)
  end
  math.randomseed(os.time() * 1000 + (tonumber(args[2]) or 0))
  headers = { ["Authorization"] = "Bearer " .. os.getenv("PIXGATE_BENCH_KEY") }
end

function request()
  return wrk.format("GET", paths[math.random(#paths)], headers)
end
