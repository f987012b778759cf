-- wrk script of bench/users.sh and bench/languages.sh: every request with the next value of a file in one header,
-- each thread from its own place in the file (the users' tokens, real browsers' Accept-Language values).
--   wrk ... -s bench/rotate.lua URL -- HEADER VALUES_FILE [PREFIX]
-- PREFIX goes before each value ("Bearer " for tokens); a line "-" sends no header. Counts answers other than 200,
-- as hotpaths.lua does, so that a run of refusals is not read as a fast one.
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("first", counter)
  table.insert(threads, thread)
end

function init(args)
  header = args[1]
  local prefix = args[3] or ""
  values = {}
  for line in io.lines(args[2]) do
    if line == "-" then values[#values + 1] = false else values[#values + 1] = prefix .. line end
  end
  index = (first * 7919) % #values
  ok = 0
  other = 0
end

function request()
  index = index % #values + 1
  wrk.headers[header] = values[index] or nil
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
