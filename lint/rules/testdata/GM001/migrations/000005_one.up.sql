DROP INDEX ix_order_no ON t_orders;
