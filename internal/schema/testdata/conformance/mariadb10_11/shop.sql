-- SHOW CREATE TABLE of each table, as MariaDB 10.11.19 prints it.
-- Recorded with shop.json by: go test -run TestRecordedFixtures -update
SET FOREIGN_KEY_CHECKS = 0;

CREATE TABLE `t_log` (
  `id` int(11) DEFAULT NULL,
  `msg` text DEFAULT NULL,
  `at_year` year(4) DEFAULT 2020
) ENGINE=MyISAM DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;

CREATE TABLE `t_order` (
  `order_no` varchar(32) NOT NULL,
  `stock_id` bigint(20) unsigned NOT NULL,
  `amount` decimal(12,2) NOT NULL CHECK (`amount` > 0),
  `paid_at` date DEFAULT '2020-01-01',
  PRIMARY KEY (`order_no`),
  KEY `fk_order_stock` (`stock_id`),
  CONSTRAINT `fk_order_stock` FOREIGN KEY (`stock_id`) REFERENCES `t_stock` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;

CREATE TABLE `t_stock` (
  `id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `sku` varchar(64) NOT NULL,
  `qty` int(11) NOT NULL DEFAULT 0 CHECK (`qty` >= 0),
  `reserved` int(11) NOT NULL DEFAULT 0,
  `status` enum('NEW','PAID') NOT NULL DEFAULT 'NEW',
  `note` varchar(20) DEFAULT NULL,
  `memo` varchar(20) DEFAULT NULL,
  `price` decimal(10,2) NOT NULL DEFAULT 1.50,
  `ratio` float(7,2) DEFAULT 0.50,
  `weight` double DEFAULT 1e20,
  `doc` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`doc`)),
  `created_at` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `changed_at` datetime(3) DEFAULT current_timestamp(3),
  `token` char(36) DEFAULT uuid(),
  `quoted` varchar(10) DEFAULT 'it''s',
  `flags` bit(3) DEFAULT b'101',
  `ext_id` varchar(40) DEFAULT NULL,
  `version` bigint(20) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_sku` (`sku`),
  UNIQUE KEY `uk_ext` (`ext_id`),
  KEY `ix_note` (`note`(5),`qty`),
  FULLTEXT KEY `ft_memo` (`memo`),
  CONSTRAINT `chk_qty_max` CHECK (`qty` <= 1000000),
  CONSTRAINT `CONSTRAINT_1` CHECK (`reserved` >= 0 and `reserved` <= `qty`),
  CONSTRAINT `chk_status` CHECK (`status` in ('NEW','PAID'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
