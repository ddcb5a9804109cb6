ALTER TABLE t_wallet ENGINE=Aria;
