DROP TABLE IF EXISTS t_inventory;
