-- wrk script of `make bench` (scripts/bench.py). Run with as many threads as connections (-t N -c N), so each
-- thread drives one connection, one request after the other.
--   WOPI_PATHS  a file with one request path (with its ?access_token=) per line; thread i uses line i (cycling).
--   WOPI_OPS    comma-separated X-WOPI-Override values sent in turn as POSTs (e.g. LOCK,REFRESH_LOCK,UNLOCK);
--               empty or unset: plain GETs.
--   WOPI_DELAY_MS  when set, each connection waits this many milliseconds after an answer before its next
--               request, so that every server is offered about the same load (16 connections at 8 ms: at most
--               2,000 requests a second); unset: no wait.
-- The next operation advances when a response arrives, not when a request is built: wrk builds one request of
-- the first thread to check the script, and never sends it.
local paths = {}
for line in io.lines(os.getenv("WOPI_PATHS")) do
  if #line > 0 then paths[#paths + 1] = line end
end

local created = 0

local pace = tonumber(os.getenv("WOPI_DELAY_MS") or "")
if pace then
  function delay() return pace end
end

function setup(thread)
  created = created + 1
  thread:set("index", created)
end

function init(args)
  path = paths[((index - 1) % #paths) + 1]
  ops = {}
  for op in string.gmatch(os.getenv("WOPI_OPS") or "", "[^,]+") do ops[#ops + 1] = op end
  step = 1
  failures = 0
end

function request()
  if #ops == 0 then return wrk.format("GET", path) end
  local headers = { ["X-WOPI-Override"] = ops[step], ["X-WOPI-Lock"] = "bench-lock-" .. index }
  return wrk.format("POST", path, headers, "")
end

function response(status, headers, body)
  -- The first few failures are printed, so that a run that fails says why.
  if status >= 300 and failures < 5 then
    failures = failures + 1
    io.stderr:write(string.format("thread %d, %s: %d %s\n", index, ops[step] or "GET", status, body or ""))
  end
  if #ops > 0 then step = step % #ops + 1 end
end
