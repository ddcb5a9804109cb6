ALTER TABLE t_payment ADD UNIQUE KEY uk_pay_no (pay_no), ADD UNIQUE (channel, trade_no), ALGORITHM=INPLACE, LOCK=NONE;
