-- wrk script of bench/languages.sh: every request with the next Accept-Language value of a file of real browsers'
-- values, each thread from its own place; a line "-" sends no header.
--   wrk ... -s bench/languages.lua URL -- VALUES_FILE
-- Counts answers other than 200, as hotpaths.lua does, so that a run of refusals is not read as a fast one.
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("first", counter)
  table.insert(threads, thread)
end

function init(args)
  values = {}
  for line in io.lines(args[1]) do
    values[#values + 1] = line
  end
  index = (first * 13) % #values
  ok = 0
  other = 0
end

function request()
  index = index % #values + 1
  if values[index] == "-" then
    wrk.headers["Accept-Language"] = nil
  else
    wrk.headers["Accept-Language"] = values[index]
  end
  return wrk.format("GET")
end

function response(status, headers, body)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end

function done(summary, latency, requests)
  local total_ok, total_other = 0, 0
  for _, thread in ipairs(threads) do
    total_ok = total_ok + thread:get("ok")
    total_other = total_other + thread:get("other")
  end
  io.write(string.format("answers: 200=%d other=%d\n", total_ok, total_other))
end
