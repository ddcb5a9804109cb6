TRUNCATE TABLE t_tmp; -- want "GM004 TRUNCATE TABLE t_tmp deletes every row$"
