DROP TABLE t_payment;
DROP TABLE t_order;
