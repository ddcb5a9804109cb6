DROP INDEX uk_order_no ON t_order;
