-- HTTP/1.1 pipelining for wrk: every send writes PIPELINE_DEPTH GET requests back to back
-- on one connection; wrk counts each response, so Requests/sec counts individual requests.
--
-- Usage: wrk -t1 -c64 -d10s -s bench/pipeline.lua http://127.0.0.1:PORT/plaintext -- [depth] [path]
--   depth defaults to 16, path defaults to the path of the URL given to wrk (or /plaintext).

local batch

function init(args)
   local depth = tonumber(args[1]) or 16
   if depth < 1 then
      depth = 1
   end
   local path = args[2] or wrk.path
   if path == nil or path == "" or path == "/" then
      path = "/plaintext"
   end

   -- wrk.format adds the default headers (Host) and the request line for each request.
   local requests = {}
   for i = 1, depth do
      requests[i] = wrk.format("GET", path)
   end
   batch = table.concat(requests)
end

function request()
   return batch
end
