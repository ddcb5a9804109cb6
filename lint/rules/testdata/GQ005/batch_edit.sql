-- Safe twin: an admin list's selected rows switched to what the request
-- says; no state of theirs was checked.
UPDATE t_banner SET status = ? WHERE id IN (?, ?, ?);

-- The same batch on a state the code tests and steps (state_by_use.sql):
-- the rows move whatever state each is in.
UPDATE t_seat SET lock_mark = ? WHERE id IN (?, ?, ?); -- want "GQ005 state column t_seat.lock_mark is set to \\? without a predicate"
