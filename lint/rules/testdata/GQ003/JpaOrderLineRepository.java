package shop.jpa.repository;

import org.springframework.data.jpa.repository.JpaRepository;
import shop.jpa.model.JpaOrderLine;

public interface JpaOrderLineRepository extends JpaRepository<JpaOrderLine, Long> {
}
