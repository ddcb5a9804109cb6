-- lock_mark is set to 1 and 2 and tested for 1 before a write: a state.
UPDATE t_seat SET lock_mark = 1 WHERE id = ?; -- want "GQ005 state column t_seat.lock_mark is set to 1 without a predicate .*inferred state: set to 1, 2 and compared with 1 by an UPDATE"

UPDATE t_seat SET lock_mark = 2 WHERE id = ?; -- want "GQ005 state column t_seat.lock_mark is set to 2 without a predicate"

UPDATE t_seat SET buyer_id = ? WHERE id = ? AND lock_mark = 1;

-- Safe twin: set to two constants, never tested: a code, not a state.
UPDATE t_seat SET note_code = 3 WHERE id = ?;

UPDATE t_seat SET note_code = 4 WHERE id = ?;

-- Safe twin: switched between 0 and 1 and tested: an on/off switch.
UPDATE t_seat SET is_hot = 1 WHERE id = ?;

UPDATE t_seat SET is_hot = 0 WHERE id = ?;

UPDATE t_seat SET buyer_id = ? WHERE id = ? AND is_hot = 0;

-- Safe twin: named as a switch, whatever values and tests the code uses.
UPDATE t_seat SET is_vip = 1 WHERE id = ?;

UPDATE t_seat SET is_vip = 2 WHERE id = ?;

UPDATE t_seat SET buyer_id = ? WHERE id = ? AND is_vip = 1;
