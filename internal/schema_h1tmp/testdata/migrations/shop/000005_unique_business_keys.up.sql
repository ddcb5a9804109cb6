CREATE UNIQUE INDEX uk_order_no ON t_order (order_no);
