-- Latency summary for wrk (bench/run-latency.sh): after the run, prints one line
--
--   LATENCY requests=N duration_us=D rps=R p50_us=.. p90_us=.. p99_us=.. p999_us=.. max_us=..
--           over_1s=K errors_connect=.. errors_read=.. errors_write=.. errors_status=.. errors_timeout=..
--
-- (on one line) that the harness parses. Requests are wrk's default GET of the URL given on its command line
-- (path and query); this script only adds the summary.
--
-- Usage: wrk -t2 -c32 -d10s --timeout 30s --latency -s bench/latency.lua http://127.0.0.1:PORT/api/report
--
-- Latencies are wrk's, in microseconds: from writing a request to reading the end of its response, one
-- request in flight per connection. wrk records a latency only below its --timeout (the harness passes 30s,
-- so that slow requests are measured rather than dropped); a request still unanswered after the timeout is
-- counted in errors_timeout instead, once per check (wrk checks every 2 s), not once per request.
--
-- over_1s, the number of requests slower than 1 s: Debian's wrk 4.1 gives no usable per-value counts
-- (indexing the latency object), so the script bisects over latency:percentile(p) for the largest p whose
-- latency is still <= 1 s, and counts (100 - p) % of summary.requests as slower. wrk ranks a percentile as
-- round(p/100 * count + 0.5), so the count is exact to within one request.

local LIMIT_US = 1000000

local function count_over(latency, total)
   if total == 0 or latency.max <= LIMIT_US then
      return 0
   end
   if latency:percentile(0) > LIMIT_US then
      return total
   end
   -- invariant: percentile(lo) <= LIMIT_US < percentile(hi)
   local lo, hi = 0.0, 100.0
   for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if latency:percentile(mid) <= LIMIT_US then
         lo = mid
      else
         hi = mid
      end
      if (hi - lo) * total / 100 < 0.01 then
         break
      end
   end
   local over = math.floor((100 - hi) * total / 100 + 0.5)
   if over < 1 then
      over = 1 -- max is above the limit, so at least one request was
   end
   return over
end

function done(summary, latency, requests)
   local e = summary.errors
   local seconds = summary.duration / 1000000
   local rps = 0
   if seconds > 0 then
      rps = summary.requests / seconds
   end
   io.write(string.format(
      "LATENCY requests=%d duration_us=%d rps=%.2f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d " ..
      "over_1s=%d errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
      summary.requests, summary.duration, rps,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
      latency.max, count_over(latency, summary.requests),
      e.connect, e.read, e.write, e.status, e.timeout))
end
