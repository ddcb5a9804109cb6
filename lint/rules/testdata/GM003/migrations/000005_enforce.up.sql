ALTER TABLE t_inventory ALTER CHECK chk_note ENFORCED; -- want "GM003 .*ALTER CHECK ... ENFORCED validates every row"
