ALTER TABLE t_invoice ADD UNIQUE KEY uk_invoice_no (invoice_no), ALGORITHM=INPLACE, LOCK=NONE;
