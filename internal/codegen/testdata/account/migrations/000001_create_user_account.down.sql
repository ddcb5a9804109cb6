DROP TABLE IF EXISTS tbl_user_account;
