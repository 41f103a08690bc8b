-- Levee fixed window on one hash key: w = index of the current window (windows of P microseconds
-- aligned to the server's epoch), c = its count. Grant iff c + n <= L.
-- KEYS[1] the hash. ARGV: 1 permits (0 = peek), 2 limit, 3 period P (us), 4-7 unused
-- Returns {granted 0/1, balance, retryAfter (us, -1 = never), resetAfter (us), wait (us)}.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
-- ARGV[8]: a shift of the server's clock in microseconds, always 0 except in Levee's own tests.
local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[8] or '0')
local n = tonumber(ARGV[1])
local L = tonumber(ARGV[2])
local P = tonumber(ARGV[3])
local k = math.floor(now / P)
local finish = (k + 1) * P
local h = redis.call('HMGET', KEYS[1], 'w', 'c')
local count = 0
if h[1] and tonumber(h[1]) == k then count = tonumber(h[2]) end
local m = n
if n == 0 then m = 1 end
if count + m > L then
  local retry = finish - now
  if m > L then retry = -1 end
  return {0, L - count, retry, finish - now, 0}
end
if n == 0 then
  return {1, L - count, 0, finish - now, 0}
end
count = count + n
redis.call('HSET', KEYS[1], 'w', string.format('%.0f', k), 'c', count)
-- The count is useless once its window has ended.
redis.call('PEXPIRE', KEYS[1], math.floor((finish - now) / 1000) + 1)
return {1, L - count, 0, finish - now, 0}
