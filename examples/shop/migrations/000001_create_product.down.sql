DROP TABLE t_product;
