-- wrk script of the benches (hotpaths.sh, run.sh, image.sh): counts the answers with the expected status and all others, across threads.
--   wrk ... -s bench/hotpaths.lua URL -- EXPECTED_STATUS [JSON_BODY]
-- With a body it POSTs it as application/json, as a browser SDK would; without one it sends wrk's GET (plus
-- any -H headers). A run whose answers are not all the expected one measured something else: the script says so.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  expected = tonumber(args[1]) or 200
  if args[2] then
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.body = args[2]
  end
  matched = 0
  other = 0
end

function response(status, headers, body)
  if status == expected then
    matched = matched + 1
  else
    other = other + 1
  end
end

-- done() runs in its own Lua state: the counts are read from each thread's.
function done(summary, latency, requests)
  local total_matched, total_other = 0, 0
  for _, thread in ipairs(threads) do
    total_matched = total_matched + thread:get("matched")
    total_other = total_other + thread:get("other")
  end
  io.write(string.format("answers: %d=%d other=%d\n", threads[1]:get("expected"), total_matched, total_other))
end
