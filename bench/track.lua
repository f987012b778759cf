-- wrk script: POST an enhanced click with metadata, as a browser SDK would, and count the answers.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"type":"click","timestamp":"2026-11-22T10:00:00.000Z","metadata":{"sdk":"web","version":"1.2.3"}}'

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  accepted = 0
  refused = 0
end

function response(status, headers, body)
  if status == 204 then
    accepted = accepted + 1
  else
    refused = refused + 1
  end
end

-- done() runs in its own Lua state: the counts are read from each thread's.
function done(summary, latency, requests)
  local total_accepted, total_refused = 0, 0
  for _, thread in ipairs(threads) do
    total_accepted = total_accepted + thread:get("accepted")
    total_refused = total_refused + thread:get("refused")
  end
  io.write(string.format("answers: 204=%d other=%d\n", total_accepted, total_refused))
end
