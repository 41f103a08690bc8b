-- Levee GCRA (virtual scheduling) on one key: the theoretical arrival time TAT, in microseconds of
-- the Redis server's clock. KEYS[1] the TAT key.
-- ARGV: 1 permits (0 = peek), 2 limit, 3 period (us), 4 burst, 5 emission interval T (us),
--       6 max wait (us), 7 initial tokens (unused)
-- Returns {granted 0/1, balance, retryAfter (us, -1 = never), resetAfter (us), wait (us)}.
--   next = max(tat, now) + n*T; grant iff next - tau - now <= maxWait, tau = burst*T.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
-- ARGV[8]: a shift of the server's clock in microseconds, always 0 except in Levee's own tests.
local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) + tonumber(ARGV[8] or '0')
local n = tonumber(ARGV[1])
local burst = tonumber(ARGV[4])
local T = tonumber(ARGV[5])
local maxWait = tonumber(ARGV[6])
local tau = burst * T
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local base = math.max(tat, now)
local balance = math.floor((tau - (base - now)) / T)
if n == 0 then
  local due = base + T - tau - now
  return {balance >= 1 and 1 or 0, balance, math.max(0, due), base - now, 0}
end
if n > burst then
  return {0, balance, -1, base - now, 0}
end
local nxt = base + n * T
local due = nxt - tau - now
if due > maxWait then
  return {0, balance, due, base - now, 0}
end
-- The key is useless once TAT has passed (an absent key reads as idle): expire it then.
redis.call('SET', KEYS[1], string.format('%.0f', nxt), 'PX', math.floor((nxt - now) / 1000) + 1)
return {1, math.floor((tau - (nxt - now)) / T), 0, nxt - now, math.max(0, due)}
