ALTER TABLE t_wallet DROP INDEX uk_pay_no; -- want "GM005 this statement removes a guard of t_wallet until a later migration puts it back: business key t_wallet.pay_no"
