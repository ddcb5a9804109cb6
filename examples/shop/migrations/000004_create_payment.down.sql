DROP TABLE t_payment;
