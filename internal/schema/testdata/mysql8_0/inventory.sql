-- SHOW CREATE TABLE / SHOW CREATE VIEW of each object, as MySQL 8.0.36 prints
-- them; inventory.json holds what information_schema gives for the same schema.

CREATE TABLE `t_inventory` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `sku` varchar(64) NOT NULL,
  `title` varchar(40) NOT NULL DEFAULT '',
  `code` varchar(10) DEFAULT 'NULL',
  `inventory` int NOT NULL DEFAULT '0',
  `reserved` int NOT NULL DEFAULT '0',
  `status` enum('NEW','PAID','CANCELLED') NOT NULL DEFAULT 'NEW',
  `note` varchar(200) DEFAULT NULL,
  `price` decimal(10,2) NOT NULL DEFAULT '1.50',
  `ratio` double DEFAULT '0.5',
  `version` int unsigned NOT NULL DEFAULT '0',
  `token` char(36) DEFAULT (uuid()),
  `label` varchar(20) DEFAULT (_utf8mb4'it\'s'),
  `created_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `updated_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  `flags` bit(3) NOT NULL DEFAULT b'101',
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_sku` (`sku`),
  KEY `ix_status` (`status`,`inventory`),
  KEY `ix_note_lower` ((lower(`note`))),
  CONSTRAINT `chk_status` CHECK ((`status` in (_utf8mb4'NEW',_utf8mb4'PAID',_utf8mb4'CANCELLED'))),
  CONSTRAINT `t_inventory_chk_1` CHECK ((`inventory` >= 0)),
  CONSTRAINT `t_inventory_chk_2` CHECK ((`reserved` >= 0)) /*!80016 NOT ENFORCED */
) ENGINE=InnoDB AUTO_INCREMENT=7 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;

CREATE TABLE `t_order` (
  `id` bigint NOT NULL AUTO_INCREMENT,
  `order_no` varchar(32) NOT NULL,
  `inventory_id` bigint unsigned NOT NULL,
  `quantity` int unsigned NOT NULL DEFAULT '1',
  `amount` decimal(12,2) NOT NULL,
  `paid_at` datetime DEFAULT NULL,
  `state` varchar(16) NOT NULL DEFAULT 'CREATED',
  `coupon_code` varchar(20) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_order_no` (`order_no`),
  UNIQUE KEY `uk_coupon` (`coupon_code`),
  KEY `fk_order_inventory` (`inventory_id`),
  CONSTRAINT `fk_order_inventory` FOREIGN KEY (`inventory_id`) REFERENCES `t_inventory` (`id`),
  CONSTRAINT `t_order_chk_1` CHECK ((`amount` > 0))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;

CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`%` SQL SECURITY DEFINER VIEW `v_open_orders` AS select `t_order`.`id` AS `id`,`t_order`.`order_no` AS `order_no` from `t_order` where (`t_order`.`state` = 'CREATED');
