-- Levee sliding-window counter on one hash key: w = index of the current fixed window (windows of P
-- microseconds aligned to the server's epoch), c = its count, p = the previous window's count.
--   estimate = c + floor(p * (P - e - 1) / P), e = microseconds into the current window
--   grant iff estimate + n <= L
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
local start = k * P
local e = now - start
local h = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local curr, prev = 0, 0
if h[1] then
  local w = tonumber(h[1])
  if w == k then
    curr = tonumber(h[2]); prev = tonumber(h[3])
  elseif w == k - 1 then
    prev = tonumber(h[2])
  end
end
local function weighted(p) return math.floor(p * (P - e - 1) / P) end
local function reset(c, p)
  if c > 0 then return start + 2 * P - now end
  if p > 0 then return start + P - now end
  return 0
end
local function ceildiv(a, b) return math.floor((a + b - 1) / b) end
local function retry(m)
  if m > L then return -1 end
  local room = L - curr - m
  if room >= 0 then
    return math.max(0, start + math.max(0, P - ceildiv((room + 1) * P, prev)) - now)
  end
  local e2 = 0
  if curr > 0 then e2 = math.max(0, P - ceildiv((L - m + 1) * P, curr)) end
  return math.max(0, start + P + e2 - now)
end
local estimate = curr + weighted(prev)
local m = n
if n == 0 then m = 1 end
if estimate + m > L then
  return {0, L - estimate, retry(m), reset(curr, prev), 0}
end
if n == 0 then
  return {1, L - estimate, 0, reset(curr, prev), 0}
end
curr = curr + n
redis.call('HSET', KEYS[1], 'w', string.format('%.0f', k), 'c', curr, 'p', prev)
-- The counts matter until the end of the next window (as its previous one).
redis.call('PEXPIRE', KEYS[1], math.floor((start + 2 * P - now) / 1000) + 1)
return {1, L - estimate - n, 0, reset(curr, prev), 0}
