-- guard plan: rolls back 000009_guard_t_order_order_no_unique.up.sql (add UNIQUE (order_no) to t_order).
ALTER TABLE `t_order` DROP INDEX `uk_t_order_order_no`, ALGORITHM=INPLACE, LOCK=NONE;
