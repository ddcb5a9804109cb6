package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaShipment;

public interface JpaShipmentRepository extends JpaRepository<JpaShipment, Long> {
}
