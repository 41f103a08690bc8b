-- Levee token bucket on one hash key: k = tokens (negative = a debt booked by waiting callers),
-- s = the time up to which refills were credited, in microseconds of the Redis server's clock.
-- Refills are credited in whole tokens of T microseconds each, so the arithmetic is exact.
-- KEYS[1] the bucket. ARGV: 1 permits (0 = peek), 2 limit, 3 period (us), 4 capacity,
--       5 refill interval T (us), 6 max wait (us), 7 initial tokens
-- Returns {granted 0/1, balance, retryAfter (us, -1 = never), resetAfter (us), wait (us)}.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
-- ARGV[8]: a shift of the server's clock in microseconds, always 0 except in Levee's own tests.
local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[8] or '0')
local n = tonumber(ARGV[1])
local cap = tonumber(ARGV[4])
local T = tonumber(ARGV[5])
local maxWait = tonumber(ARGV[6])
local h = redis.call('HMGET', KEYS[1], 'k', 's')
local tokens, since
if not h[1] then
  tokens = tonumber(ARGV[7])
  since = now
else
  tokens = tonumber(h[1])
  since = tonumber(h[2])
end
if now > since then
  local add = math.floor((now - since) / T)
  if tokens + add >= cap then
    if tokens < cap then tokens = cap end
    since = now
  else
    tokens = tokens + add
    since = since + add * T
  end
end
-- Time until the bucket is full again: the key's lifetime (an absent key reads as full).
local function full(k)
  if k >= cap then return 0 end
  return math.max(0, (cap - k) * T - (now - since))
end
if n == 0 then
  local wait = 0
  if tokens < 1 then wait = (1 - tokens) * T - (now - since) end
  return {tokens >= 1 and 1 or 0, tokens, math.max(0, wait), full(tokens), 0}
end
if n > cap then
  return {0, tokens, -1, full(tokens), 0}
end
local wait = 0
if tokens < n then wait = math.max(0, (n - tokens) * T - (now - since)) end
if wait > maxWait then
  return {0, tokens, wait, full(tokens), 0}
end
tokens = tokens - n
local reset = full(tokens)
redis.call('HSET', KEYS[1], 'k', string.format('%.0f', tokens), 's', string.format('%.0f', since))
redis.call('PEXPIRE', KEYS[1], math.floor(reset / 1000) + 1)
return {1, tokens, 0, reset, wait}
