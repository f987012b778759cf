-- wrk script of bench/event-ids.sh: POST a click, every request built here so that each mode costs wrk alike;
-- the answers are counted as bench/hotpaths.lua counts them.
--   wrk ... -s bench/event-ids.lua URL -- MODE
-- MODE none: "eventId":null; unique: a fresh id each request (a prefix per thread and run, then a counter);
-- repeated: one of 100 fixed ids, so that after the first 100 every request repeats one already stored.
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
  prefix = string.format("%x-%d-", os.time(), id)
  matched = 0
  other = 0
end

function request()
  counter = counter + 1
  local id = "null"
  if mode == "unique" then
    id = '"' .. prefix .. counter .. '"'
  elseif mode == "repeated" then
    id = '"repeat-' .. (counter % 100) .. '"'
  end
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, '{"type":"click","eventId":' .. id .. '}')
end
