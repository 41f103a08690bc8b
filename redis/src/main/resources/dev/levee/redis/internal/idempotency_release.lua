-- Levee idempotency store: delete a claimed record if the owner still holds the claim, so a retry of a
-- transiently failed request can execute. KEYS[1] the record (fields: see idempotency_claim.lua).
-- ARGV: 1 owner token
-- Returns 1 if deleted, 0 if the claim is no longer this owner's.
local rec = redis.call('HMGET', KEYS[1], 's', 'o')
if rec[1] ~= 'p' or rec[2] ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
