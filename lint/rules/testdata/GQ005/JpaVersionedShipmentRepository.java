package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaVersionedShipment;

public interface JpaVersionedShipmentRepository extends JpaRepository<JpaVersionedShipment, Long> {
}
