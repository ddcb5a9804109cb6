-- A dump's stored procedure is MySQL the parser does not read: the finding
-- names it as a stored program instead of calling its syntax wrong.
DELIMITER $$
/*!50003 CREATE DEFINER=`root`@`localhost` PROCEDURE `add_dep`(in dep_name varchar(32)) -- want "^GQ009 not checked: CREATE PROCEDURE add_dep is a stored program; guard does not read the statements of its body"
begin
  insert into department set name = dep_name;
end */$$
DELIMITER ;
-- A statement that is wrong is still called so.
UPDATE department SET name = 'x' WHER id = 1; -- want "^GQ009 not checked: SQL does not parse at 10:"
