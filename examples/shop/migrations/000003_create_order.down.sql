DROP TABLE t_order;
