-- A ticket is known by its sn; a payment flow names the ticket it pays by
-- ticket_sn, which the ticket table owns: a reference, not a key of the flow.
CREATE TABLE t_ticket ( -- want "GS005 business key t_ticket.sn .*inferred business key"
  id BIGINT      NOT NULL AUTO_INCREMENT,
  sn VARCHAR(32) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
