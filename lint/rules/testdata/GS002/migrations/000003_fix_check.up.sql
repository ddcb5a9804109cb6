ALTER TABLE t_counter_fixed ALTER CHECK chk_fixed ENFORCED;
