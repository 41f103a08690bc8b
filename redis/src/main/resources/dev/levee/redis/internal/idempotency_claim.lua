-- Levee idempotency store: claim a record, or answer the record found. One hash per record,
-- KEYS[1] = key prefix + record key, fields:
--   s  state: 'p' in progress, 'c' completed
--   f  the fingerprint the winning claim gave
--   o  the owner token of an in-progress record
--   d  the lease deadline of an in-progress record, milliseconds of the server's clock
--   r  the stored response of a completed record (Levee's binary encoding, see ResponseCodec)
-- ARGV: 1 fingerprint, 2 owner token, 3 lease (ms), 4 clock shift (ms, always 0 except in Levee's tests)
-- Returns {0, tookOver 0/1}: claimed (tookOver = an in-progress record whose lease had lapsed was replaced)
--         {1, fingerprint, lease left (ms)}: in progress
--         {2, fingerprint, response}: completed
-- The key of an in-progress record lives twice its lease: the deadline d decides the lease against the
-- server's clock; the second lease only lets a takeover be told from a free key. A completed record
-- lives its time to live (set by the complete script). Every key has a TTL.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[4])
local rec = redis.call('HMGET', KEYS[1], 's', 'f', 'd', 'r')
local took = 0
if rec[1] == 'c' then
  return {2, rec[2], rec[4]}
end
if rec[1] == 'p' then
  local left = tonumber(rec[3]) - now
  if left > 0 then
    return {1, rec[2], left}
  end
  took = 1
end
local lease = tonumber(ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'p', 'f', ARGV[1], 'o', ARGV[2], 'd', string.format('%.0f', now + lease))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', 2 * lease))
return {0, took}
