-- SHOW CREATE TABLE of each table, as MySQL 8.4.3 prints it; account.json
-- holds what information_schema gives for the same schema.

CREATE TABLE `t_account` (
  `id` bigint NOT NULL AUTO_INCREMENT,
  `user_id` bigint NOT NULL,
  `currency` char(3) NOT NULL DEFAULT 'CNY',
  `balance` decimal(14,2) NOT NULL DEFAULT '0.00',
  `frozen` decimal(14,2) NOT NULL DEFAULT '0.00',
  `points` int unsigned NOT NULL DEFAULT '0',
  `level` tinyint NOT NULL DEFAULT '1',
  `active` tinyint(1) NOT NULL DEFAULT '1',
  `version` bigint NOT NULL DEFAULT '0',
  `created_at` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `expires_on` date DEFAULT NULL,
  `region` varchar(8) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_user_currency` (`user_id`,`currency`),
  UNIQUE KEY `uk_region_user` (`region`,`user_id`),
  KEY `ix_balance` (`balance`),
  CONSTRAINT `chk_account_currency` CHECK ((`currency` <> _utf8mb4'')),
  CONSTRAINT `t_account_chk_1` CHECK (((`balance` >= 0) and (`frozen` >= 0))),
  CONSTRAINT `t_account_chk_2` CHECK ((`frozen` <= `balance`)) /*!80016 NOT ENFORCED */
) ENGINE=InnoDB AUTO_INCREMENT=1001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;

CREATE TABLE `t_legacy` (
  `code` varchar(20) NOT NULL,
  `points` int NOT NULL DEFAULT '0',
  `note` text
) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;

CREATE TABLE `t_payment` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `pay_no` varchar(64) NOT NULL,
  `channel` varchar(16) NOT NULL,
  `trade_no` varchar(64) DEFAULT NULL,
  `amount` decimal(12,2) NOT NULL,
  `status` enum('PENDING','PAID','REFUNDED') NOT NULL DEFAULT 'PENDING',
  `request_id` char(36) NOT NULL DEFAULT (uuid()),
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_pay_no_lower` ((lower(`pay_no`))),
  UNIQUE KEY `uk_channel_trade` (`channel`,`trade_no`),
  KEY `ix_amount_channel` (((`amount` * 100)),`channel`),
  CONSTRAINT `t_payment_chk_1` CHECK ((`amount` > 0))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;
