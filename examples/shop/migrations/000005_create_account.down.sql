DROP TABLE t_account;
