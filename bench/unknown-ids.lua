-- wrk script of bench/unknown-ids.sh: POST a click for a fresh random 22-character id each request.
local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
request = function()
  local id = {}
  for i = 1, 22 do local n = math.random(1, #chars); id[i] = chars:sub(n, n) end
  return wrk.format("POST", "/api/v1/public/track/" .. table.concat(id), {["Content-Type"] = "application/json"}, '{"type":"click"}')
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, %.0f/s, p99 %.1f ms\n", summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000))
end
