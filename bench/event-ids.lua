-- wrk script of bench/event-ids.sh: POST a click, every request built here so that each mode costs wrk alike;
-- the answers are counted as bench/hotpaths.lua counts them.
--   wrk ... -s bench/event-ids.lua http://HOST:PORT -- MODE NOTIFICATION_ID...
-- Requests go to the notifications in turn. MODE none: "eventId":null; unique: a fresh id each request (a prefix
-- per thread and run, then a counter); repeated: one of 100 fixed ids, so that once each (notification's project,
-- id) pair is stored every request repeats one.
dofile("bench/hotpaths.lua")
local counter = 0
local threads_set_up = 0
local count_answers = setup

function setup(thread)
  threads_set_up = threads_set_up + 1
  thread:set("id", threads_set_up)
  count_answers(thread)
end

function init(args)
  expected = 204
  mode = args[1] or "none"
  targets = {}
  for i = 2, #args do
    targets[#targets + 1] = "/api/v1/public/track/" .. args[i]
  end
  prefix = string.format("%x-%d-", os.time(), id)
  matched = 0
  other = 0
end

function request()
  counter = counter + 1
  local eventId = "null"
  if mode == "unique" then
    eventId = '"' .. prefix .. counter .. '"'
  elseif mode == "repeated" then
    eventId = '"repeat-' .. (counter % 100) .. '"'
  end
  return wrk.format("POST", targets[counter % #targets + 1], {["Content-Type"] = "application/json"},
                    '{"type":"click","eventId":' .. eventId .. '}')
end
