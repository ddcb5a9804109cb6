package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaVersionedOrderLine;

public interface JpaVersionedOrderLineRepository extends JpaRepository<JpaVersionedOrderLine, Long> {
}
