ALTER TABLE t_payment DROP INDEX uk_pay_no, DROP INDEX channel;
