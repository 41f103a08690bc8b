-- Levee idempotency store: store the response of a claimed record if the owner still holds the claim
-- (the record is in progress with this owner token; a lapsed lease nobody took over still counts).
-- KEYS[1] the record (fields: see idempotency_claim.lua).
-- ARGV: 1 owner token, 2 encoded response, 3 time to live (ms)
-- Returns 1 if stored, 0 if the claim is no longer this owner's (taken over, released or expired).
local rec = redis.call('HMGET', KEYS[1], 's', 'o', 'f')
if rec[1] ~= 'p' or rec[2] ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'c', 'f', rec[3], 'r', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
