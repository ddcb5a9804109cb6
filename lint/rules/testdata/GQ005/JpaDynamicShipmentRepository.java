package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaDynamicShipment;

public interface JpaDynamicShipmentRepository extends JpaRepository<JpaDynamicShipment, Long> {
}
